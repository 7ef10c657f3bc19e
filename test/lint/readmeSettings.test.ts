// The README's settings table is what a person reads on the Marketplace page before changing anything: it once
// lacked keyward.spend.dailyCapUsd and keyward.chat.enterSends, and gave keyward.direct.usageTier a default of
// `Free` the manifest does not have. Each setting of package.json's contributes.configuration has one row, and its
// default column starts with the manifest's default (`value`; "empty" for ""; "none" for null; "not set" without one).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Property {
  default?: unknown;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } };
};
const properties = manifest.contributes.configuration.properties;

/** The settings table's rows: the setting each names and its default column. */
export function settingRows(markdown: string): { setting: string; defaultCell: string }[] {
  const section = markdown.split(/^## Settings$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `(keyward\.[\w.]+)`[^|]*\| ([^|]*) \|/gm)].map((m) => ({
    setting: m[1]!,
    defaultCell: m[2]!.trim(),
  }));
}

/** How the table must begin a setting's default cell. */
export function defaultWords(property: Property): string {
  if (!('default' in property)) return 'not set';
  if (property.default === null) return 'none';
  if (property.default === '') return 'empty';
  return `\`${String(property.default)}\``;
}

/** What is wrong with a settings table against the manifest's properties. */
export function settingsTableProblems(markdown: string, manifestProperties: Record<string, Property>): string[] {
  const rows = settingRows(markdown);
  const problems: string[] = [];
  for (const [setting, property] of Object.entries(manifestProperties)) {
    const row = rows.filter((r) => r.setting === setting);
    if (row.length !== 1) problems.push(`${setting}: ${row.length} rows`);
    else if (!row[0]!.defaultCell.startsWith(defaultWords(property)))
      problems.push(`${setting}: default "${row[0]!.defaultCell}", the manifest's is ${defaultWords(property)}`);
  }
  for (const row of rows) if (!(row.setting in manifestProperties)) problems.push(`${row.setting}: no such setting`);
  return problems;
}

describe("the README's settings table", () => {
  it('has one row per setting of the manifest, with its default', () => {
    expect(settingsTableProblems(readFileSync('README.md', 'utf8'), properties)).toEqual([]);
  });

  // The check itself, on the table the README had.
  it('refuses a missing row, a wrong default and a setting that does not exist', () => {
    const table = [
      '## Settings',
      '',
      '| setting | default |',
      '| --- | --- |',
      '| `keyward.direct.usageTier` | `Free` (Free, Build, Launch, Grow) |',
      '| `keyward.status.refreshMinutes` | `5` (0: only on start) |',
      '| `keyward.gone` | `1` |',
      '',
      '## Next',
    ].join('\n');
    expect(
      settingsTableProblems(table, {
        'keyward.direct.usageTier': {},
        'keyward.status.refreshMinutes': { default: 5 },
        'keyward.spend.dailyCapUsd': { default: null },
      }),
    ).toEqual([
      'keyward.direct.usageTier: default "`Free` (Free, Build, Launch, Grow)", the manifest\'s is not set',
      'keyward.spend.dailyCapUsd: 0 rows',
      'keyward.gone: no such setting',
    ]);
  });
});
