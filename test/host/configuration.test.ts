// A repository's .vscode/settings.json cannot weaken a privacy or safety setting:
// the one host file that reads settings combines the levels (fake vscode).
import { afterEach, describe, expect, it } from 'vitest';
import { Configuration, readSetting } from '../../src/host/configuration.ts';
import { Log } from '../../src/host/log.ts';
import { fake } from './vscodeShim.ts';

function clear(): void {
  for (const name of Object.keys(fake.state.settings)) delete fake.state.settings[name];
  for (const name of Object.keys(fake.state.workspaceSettings)) delete fake.state.workspaceSettings[name];
}

afterEach(clear);

describe('Configuration: settings a workspace may only make stricter', () => {
  it("keeps the user's data-collection opt-out when the workspace switches it off", () => {
    fake.state.settings['keyward.router.denyDataCollection'] = true;
    fake.state.workspaceSettings['keyward.router.denyDataCollection'] = false;
    const configuration = new Configuration(new Log());
    expect(configuration.value.router.denyDataCollection).toBe(true);
    configuration.dispose();
  });

  it('lets the workspace opt out of data collection for itself', () => {
    fake.state.workspaceSettings['keyward.router.denyDataCollection'] = true;
    const configuration = new Configuration(new Log());
    expect(configuration.value.router.denyDataCollection).toBe(true);
    configuration.dispose();
  });

  it('does not let the workspace lower the scan size cap or hide keys in ignored files', () => {
    fake.state.workspaceSettings['keyward.scan.maxFileSizeKb'] = 1;
    fake.state.workspaceSettings['keyward.diagnostics.ignoredFiles'] = 'off';
    expect(readSetting('scan.maxFileSizeKb')).toBe(1024);
    expect(readSetting('diagnostics.ignoredFiles')).toBe('information');
    fake.state.settings['keyward.diagnostics.ignoredFiles'] = 'off';
    expect(readSetting('diagnostics.ignoredFiles')).toBe('off');
  });

  it('reads other settings as VS Code merges them', () => {
    fake.state.workspaceSettings['keyward.network.idleTimeoutMs'] = 5000;
    expect(readSetting('network.idleTimeoutMs')).toBe(5000);
  });
});

describe('Configuration in Restricted Mode (an untrusted folder)', () => {
  afterEach(() => {
    fake.api.workspace.isTrusted = true;
  });

  it("ignores the folder's network timeouts, keeping the user's or the defaults", () => {
    fake.api.workspace.isTrusted = false;
    // A short but valid timeout would make every request fail.
    fake.state.workspaceSettings['keyward.network.connectTimeoutMs'] = 1;
    fake.state.workspaceSettings['keyward.network.idleTimeoutMs'] = 1;
    fake.state.workspaceSettings['keyward.network.requestTimeoutMs'] = 1;
    fake.state.settings['keyward.network.idleTimeoutMs'] = 30_000;
    const configuration = new Configuration(new Log());
    expect(configuration.value.network).toMatchObject({
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 30_000,
      requestTimeoutMs: 600_000,
    });
    configuration.dispose();
  });

  it("ignores the folder's values for the guarded settings too, and reads them again once the folder is trusted", () => {
    fake.api.workspace.isTrusted = false;
    fake.state.workspaceSettings['keyward.scan.maxFileSizeKb'] = 8192;
    fake.state.workspaceSettings['keyward.network.connectTimeoutMs'] = 2000;
    expect(readSetting('scan.maxFileSizeKb')).toBe(1024);
    expect(readSetting('network.connectTimeoutMs')).toBeUndefined();
    fake.api.workspace.isTrusted = true;
    expect(readSetting('scan.maxFileSizeKb')).toBe(8192);
    expect(readSetting('network.connectTimeoutMs')).toBe(2000);
  });
});

describe("Configuration: VS Code's proxy settings", () => {
  it('hands http.proxy, http.noProxy, http.proxyStrictSSL and http.proxyAuthorization to core', () => {
    fake.state.settings['http.proxy'] = 'http://proxy.corp:3128';
    fake.state.settings['http.noProxy'] = ['localhost', '*.corp'];
    fake.state.settings['http.proxyStrictSSL'] = false;
    fake.state.settings['http.proxyAuthorization'] = 'Basic abc';
    const configuration = new Configuration(new Log());
    expect(configuration.value.network.proxy).toMatchObject({
      url: 'http://proxy.corp:3128/',
      noProxy: 'localhost,*.corp',
      strictSSL: false,
      authorization: 'Basic abc',
      systemCertificates: true,
    });
    configuration.dispose();
  });

  it("never takes the proxy or certificate checks from a repository's settings", () => {
    fake.state.workspaceSettings['http.proxy'] = 'http://attacker.example:8080';
    fake.state.workspaceSettings['http.proxyStrictSSL'] = false;
    fake.state.workspaceSettings['http.systemCertificates'] = false;
    const configuration = new Configuration(new Log());
    expect(configuration.value.network.proxy.url).not.toBe('http://attacker.example:8080/');
    expect(configuration.value.network.proxy.strictSSL).toBe(true);
    expect(configuration.value.network.proxy.systemCertificates).toBe(true);
    configuration.dispose();
  });

  it('follows a change of http.proxy', () => {
    const configuration = new Configuration(new Log());
    fake.state.settings['http.proxy'] = 'http://proxy.corp:3128';
    fake.state.configurationEmitter.fire({ affectsConfiguration: (section: string) => section === 'http' });
    expect(configuration.value.network.proxy.url).toBe('http://proxy.corp:3128/');
    configuration.dispose();
  });
});
