// The README's settings table against package.json, the one place settings are declared: every setting has a row,
// no row names a setting that does not exist, and the default a row shows is the manifest's. A setting without a
// default (VS Code hands "" or null) reads "not set" or "empty" there, never a value Keyward does not use: the table
// once said `Free` for keyward.direct.usageTier, which has no default, and left out two settings.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Property {
  default?: unknown;
  enum?: unknown[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } | { properties: Record<string, Property> }[] };
};
const properties = Object.fromEntries(
  [manifest.contributes.configuration].flat().flatMap(({ properties }) => Object.entries(properties)),
);

/** The rows of the table under "## Settings": the settings the first cell names, and the default cell. */
function settingsTable(): { names: string[]; cell: string }[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Settings\n')) ?? '';
  return section
    .split('\n')
    .filter((line) => /^\|\s*`keyward\./.test(line))
    .map((line) => {
      const [, first = '', second = ''] = line.split('|');
      return { names: [...first.matchAll(/`(keyward\.[\w.]+)`/g)].map((m) => m[1]!), cell: second.trim() };
    });
}

/** How the manifest's default reads in the table: its value in backticks, or "not set"/"empty" when there is none. */
function shownDefault(cell: string): { value: string } | 'none' | 'described' {
  if (/^(not set|empty)\b/i.test(cell)) return 'none';
  const value = /^`([^`]*)`/.exec(cell)?.[1];
  return value === undefined ? 'described' : { value };
}

describe("the README's settings table", () => {
  const rows = settingsTable();
  const listed = rows.flatMap((row) => row.names);

  it('has a row for every setting in package.json, and none for a setting that is not there', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect([...listed].sort()).toEqual(Object.keys(properties).sort());
  });

  it.each(Object.keys(properties))("shows %s's default as package.json declares it", (name) => {
    const row = rows.find((candidate) => candidate.names.includes(name));
    expect(row, `${name} has no row`).toBeDefined();
    const declared = properties[name]!.default;
    const shown = shownDefault(row!.cell);
    if (declared === undefined || declared === null || declared === '') expect(shown, row!.cell).toBe('none');
    // A page URL is described ("the routing service's key and credit pages"); a value given must be the real one.
    else if (shown === 'described') expect(typeof declared, row!.cell).toBe('string');
    else expect(shown, row!.cell).toEqual({ value: String(declared) });
  });

  it.each(Object.keys(properties).filter((name) => properties[name]!.enum))('names every value of %s', (name) => {
    const row = rows.find((candidate) => candidate.names.includes(name));
    for (const value of properties[name]!.enum!) expect(row?.cell).toContain(String(value));
  });
});
