// What a fresh profile hands Keyward: every setting of package.json as VS Code fills it when nobody set it. A
// declared default as it is; a type without a default as that type's empty value (VS Code's
// src/vs/platform/configuration/common/configurationRegistry.ts, getDefaultValue: "" for a string, 0 for a number,
// false for a boolean, the first type of a list deciding). Unit fakes return undefined instead, which is how a
// warning on every start ("keyward.direct.usageTier must be one of …") went unseen.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, normalizeConfig } from '../../src/core/config.ts';
import { proxyFromSettings } from '../../src/core/proxyConfig.ts';

interface Property {
  type?: string | string[];
  default?: unknown;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } | { properties: Record<string, Property> }[] };
};

/** VS Code's getDefaultValue, for a property that declares no default. */
function emptyValueOf(type: Property['type']): unknown {
  const first = Array.isArray(type) ? type[0] : type;
  switch (first) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return 0;
    case 'string':
      return '';
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

function untouchedProfile(): Map<string, unknown> {
  const sections = [manifest.contributes.configuration].flat();
  const values = new Map<string, unknown>();
  for (const { properties } of sections)
    for (const [name, property] of Object.entries(properties))
      values.set(name, 'default' in property ? property.default : emptyValueOf(property.type));
  return values;
}

describe('an untouched profile', () => {
  const profile = untouchedProfile();

  it('reads every Keyward setting of the manifest, some without a default', () => {
    expect(profile.size).toBeGreaterThan(15);
    expect([...profile.keys()].every((name) => name.startsWith('keyward.'))).toBe(true);
    // The case that warned on every start: a string setting with no default arrives as "".
    expect(profile.get('keyward.direct.usageTier')).toBe('');
  });

  it('warns about nothing and gives the defaults', () => {
    const { config, problems } = normalizeConfig((name) => profile.get(`keyward.${name}`));
    expect(problems).toEqual([]);
    expect(config).toEqual(DEFAULT_CONFIG);
  });

  it("warns about nothing for VS Code's own http.* defaults either", () => {
    // VS Code's declared defaults (src/vs/platform/request/common/request.ts): proxy "", noProxy [],
    // proxyStrictSSL true, proxyAuthorization null, systemCertificates true.
    const http: Record<string, unknown> = {
      proxy: '',
      noProxy: [],
      proxyStrictSSL: true,
      proxyAuthorization: null,
      systemCertificates: true,
    };
    const { proxy, problems } = proxyFromSettings((name) => http[name], {});
    expect(problems).toEqual([]);
    expect(proxy).toEqual(DEFAULT_CONFIG.network.proxy);
  });
});
