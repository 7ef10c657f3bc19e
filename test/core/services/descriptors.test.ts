// The service table against what the extension declares: every command a row
// names is contributed, every setting it names is declared (application scope:
// a repository must not point a key at its own server), and the rows do not
// share what must be one service's alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICES, SERVICE_IDS } from '../../../src/core/services/descriptors.ts';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, { scope?: string; markdownDescription?: string }> };
  };
};
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;

describe('the service table', () => {
  it('has one row per service id, each under its own id', () => {
    expect(Object.keys(SERVICES).sort()).toEqual([...SERVICE_IDS].sort());
    for (const id of SERVICE_IDS) expect(SERVICES[id].id).toBe(id);
  });

  it('names only commands package.json contributes, each with a localised title', () => {
    const declared = new Map(manifest.contributes.commands.map((c) => [c.command, c.title]));
    for (const id of SERVICE_IDS)
      for (const command of Object.values(SERVICES[id].commands)) {
        expect(declared.has(command), command).toBe(true);
        expect(nls[declared.get(command)!.replace(/^%|%$/g, '')], command).toBeTruthy();
      }
  });

  it('names only settings package.json declares, in application scope, with a description', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const id of SERVICE_IDS)
      for (const setting of [SERVICES[id].settings.baseUrl, SERVICES[id].settings.name]) {
        if (setting === null) continue;
        expect(properties[setting]?.scope, setting).toBe('application');
        expect(properties[setting]?.markdownDescription, setting).toMatch(/^%.+%$/);
      }
  });

  it('gives each service its own secret slot, environment variables, commands and status item', () => {
    const unique = (pick: (id: (typeof SERVICE_IDS)[number]) => string[]) => {
      const all = SERVICE_IDS.flatMap(pick);
      expect(new Set(all).size).toBe(all.length);
    };
    unique((id) => [SERVICES[id].secretSlot]);
    unique((id) => [SERVICES[id].env.key, SERVICES[id].env.baseUrl]);
    unique((id) => Object.values(SERVICES[id].commands));
    unique((id) => [SERVICES[id].statusBar.id]);
  });

  it('keeps credit and free-model features to the services that have them', () => {
    expect(SERVICE_IDS.filter((id) => SERVICES[id].capabilities.hasCredits)).toEqual(['router']);
    expect(SERVICE_IDS.filter((id) => SERVICES[id].capabilities.hasFreeModels)).toEqual(['router']);
    expect(SERVICE_IDS.filter((id) => SERVICES[id].capabilities.keyOptional)).toEqual(['compatible']);
    expect(SERVICES.compatible).toMatchObject({
      wire: 'chat-completions',
      defaultBaseUrl: null,
      keyShape: null,
      pages: { keys: null, credits: null },
    });
  });
});
