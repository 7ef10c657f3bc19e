import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_CONFIG,
  GUARDED_SETTINGS,
  RESTRICTED_SETTINGS,
  guardedValue,
  isGuardedSetting,
  normalizeConfig,
} from '../../src/core/config.ts';
import { checkBaseUrl, endpointUrl, isLoopbackHost } from '../../src/core/urlPolicy.ts';

const reader = (values: Record<string, unknown>) => (name: string) => values[name];

describe('normalizeConfig', () => {
  it('gives the defaults for empty settings', () => {
    expect(normalizeConfig(reader({}))).toEqual({ config: DEFAULT_CONFIG, problems: [] });
  });

  it('waits ten minutes for an answer that is not streamed, one for a silent stream', () => {
    expect(DEFAULT_CONFIG.network).toEqual({
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 60_000,
      requestTimeoutMs: 600_000,
      // Straight, checking certificates, trusting the system store beside Node's: until VS Code's http.* say otherwise.
      proxy: { url: null, noProxy: '', strictSSL: true, authorization: null, systemCertificates: true },
    });
    expect(normalizeConfig(reader({ 'network.requestTimeoutMs': 1_200_000 })).config.network.requestTimeoutMs).toBe(
      1_200_000,
    );
  });

  it('accepts https and loopback http base URLs, trimming a trailing slash', () => {
    const { config, problems } = normalizeConfig(
      reader({
        'router.baseUrl': 'http://127.0.0.1:8080/router/api/v1/',
        'direct.baseUrl': 'https://proxy.example/v1',
      }),
    );
    expect(problems).toEqual([]);
    expect(config.router.baseUrl).toBe('http://127.0.0.1:8080/router/api/v1');
    expect(config.direct.baseUrl).toBe('https://proxy.example/v1');
  });

  it.each([
    ['router.baseUrl', 'http://example.com/v1', /clear text/],
    ['router.baseUrl', 'ftp://example.com', /not a valid https URL/],
    ['direct.baseUrl', 'not a url', /not a valid/],
    ['direct.baseUrl', 42, /URL string/],
    ['network.connectTimeoutMs', -5, /milliseconds/],
    ['network.idleTimeoutMs', 'soon', /milliseconds/],
    ['network.requestTimeoutMs', 50, /milliseconds from 1000/],
    ['scan.maxFileSizeKb', 'lots', /kilobytes/],
    ['scan.maxFileSizeKb', 0, /at least 1/],
    ['diagnostics.ignoredFiles', 'hidden', /one of information, off/],
  ])('names %s = %j and falls back to the default', (setting, value, message) => {
    const { config, problems } = normalizeConfig(reader({ [setting]: value }));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.setting).toBe(`keyward.${setting}`);
    expect(problems[0]!.message).toMatch(message);
    expect(config).toEqual(DEFAULT_CONFIG);
  });
});

describe('the settings that were read untyped', () => {
  it('gives the size cap and the level for ignored files typed', () => {
    const { config, problems } = normalizeConfig(
      reader({ 'scan.maxFileSizeKb': 4096, 'diagnostics.ignoredFiles': 'off' }),
    );
    expect(problems).toEqual([]);
    expect(config.scan.maxFileSizeKb).toBe(4096);
    expect(config.diagnostics.ignoredFiles).toBe('off');
  });
});

describe('url policy', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.10.0.2', true],
    ['[::1]', true],
    ['10.0.0.1', false],
    ['localhost.example.com', false],
    ['127.0.0.1.nip.io', false],
  ])('loopback(%s) = %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('refuses http to a remote host as insecure, and other schemes as invalid', () => {
    expect(checkBaseUrl('http://api.example.com/v1')).toEqual({ ok: false, reason: 'insecure' });
    expect(checkBaseUrl('file:///etc/passwd')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkBaseUrl('http://[::1]:9/v1').ok).toBe(true);
  });

  it('joins endpoints under the base path', () => {
    expect(endpointUrl('https://a.example/api/v1/', '/key')).toBe('https://a.example/api/v1/key');
  });
});

describe('privacy and safety settings a workspace can only make stricter', () => {
  it("keeps the user's data-collection opt-out whatever the workspace says, and lets a workspace opt out", () => {
    expect(
      guardedValue('router.denyDataCollection', { defaultValue: false, globalValue: true, workspaceValue: false }),
    ).toBe(true);
    expect(guardedValue('router.denyDataCollection', { defaultValue: false, workspaceValue: true })).toBe(true);
    expect(guardedValue('router.denyDataCollection', { defaultValue: false, workspaceFolderValue: 'yes' })).toBe(false);
    expect(guardedValue('router.denyDataCollection', { globalValue: false })).toBe(false);
  });

  it('lets a workspace raise the scan size cap, never lower it', () => {
    expect(guardedValue('scan.maxFileSizeKb', { defaultValue: 1024, workspaceValue: 1 })).toBe(1024);
    expect(guardedValue('scan.maxFileSizeKb', { workspaceValue: 1 })).toBe(1024);
    expect(guardedValue('scan.maxFileSizeKb', { defaultValue: 1024, globalValue: 4096, workspaceValue: 8192 })).toBe(
      8192,
    );
    expect(
      guardedValue('scan.maxFileSizeKb', {
        defaultValue: 1024,
        globalValue: 4096,
        workspaceValue: 2048,
        workspaceFolderValue: 10,
      }),
    ).toBe(4096);
  });

  it('lets a workspace show keys in ignored files, never hide them', () => {
    expect(guardedValue('diagnostics.ignoredFiles', { defaultValue: 'information', workspaceValue: 'off' })).toBe(
      'information',
    );
    expect(
      guardedValue('diagnostics.ignoredFiles', {
        defaultValue: 'information',
        globalValue: 'off',
        workspaceValue: 'information',
      }),
    ).toBe('information');
    expect(guardedValue('diagnostics.ignoredFiles', { defaultValue: 'information', globalValue: 'off' })).toBe('off');
  });

  it('covers every privacy and safety setting package.json declares, and none of them is window-scoped without the guard', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
      capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
    };
    const guarded = GUARDED_SETTINGS.map((name) => `keyward.${name}`);
    for (const name of guarded) {
      expect(manifest.contributes.configuration.properties[name], name).toBeDefined();
      expect(isGuardedSetting(name.slice('keyward.'.length))).toBe(true);
    }
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect([...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort()).toEqual(
      RESTRICTED_SETTINGS.map((name) => `keyward.${name}`).sort(),
    );
    for (const name of guarded) expect(RESTRICTED_SETTINGS).toContain(name.slice('keyward.'.length));
    // A repository's short but valid timeout would make every request fail: an untrusted folder cannot set them.
    for (const name of ['network.connectTimeoutMs', 'network.idleTimeoutMs', 'network.requestTimeoutMs'])
      expect(RESTRICTED_SETTINGS).toContain(name);
    // Where requests go and which pages open is the user's alone.
    for (const name of [
      'keyward.router.baseUrl',
      'keyward.direct.baseUrl',
      'keyward.router.keysUrl',
      'keyward.router.creditsUrl',
      'keyward.direct.keysUrl',
      'keyward.direct.billingUrl',
    ]) {
      expect(manifest.contributes.configuration.properties[name]!.scope, name).toBe('application');
    }
  });
});
