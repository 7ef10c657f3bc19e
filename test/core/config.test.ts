import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, normalizeConfig } from '../../src/core/config.ts';
import { checkBaseUrl, endpointUrl, isLoopbackHost } from '../../src/core/urlPolicy.ts';

const reader = (values: Record<string, unknown>) => (name: string) => values[name];

describe('normalizeConfig', () => {
  it('gives the defaults for empty settings', () => {
    expect(normalizeConfig(reader({}))).toEqual({ config: DEFAULT_CONFIG, problems: [] });
  });

  it('waits ten minutes for an answer that is not streamed, one for a silent stream', () => {
    expect(DEFAULT_CONFIG.network).toEqual({ connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, requestTimeoutMs: 600_000 });
    expect(normalizeConfig(reader({ 'network.requestTimeoutMs': 1_200_000 })).config.network.requestTimeoutMs).toBe(1_200_000);
  });

  it('accepts https and loopback http base URLs, trimming a trailing slash', () => {
    const { config, problems } = normalizeConfig(reader({ 'router.baseUrl': 'http://127.0.0.1:8080/router/api/v1/', 'direct.baseUrl': 'https://proxy.example/v1' }));
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
  ])('names %s = %j and falls back to the default', (setting, value, message) => {
    const { config, problems } = normalizeConfig(reader({ [setting]: value }));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.setting).toBe(`keyward.${setting}`);
    expect(problems[0]!.message).toMatch(message);
    expect(config).toEqual(DEFAULT_CONFIG);
  });
});

describe('url policy', () => {
  it.each([
    ['localhost', true], ['127.0.0.1', true], ['127.10.0.2', true], ['[::1]', true],
    ['10.0.0.1', false], ['localhost.example.com', false], ['127.0.0.1.nip.io', false],
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
