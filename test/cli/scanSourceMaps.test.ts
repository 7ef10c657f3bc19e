// A source map through `keyward scan`: each original source in `sourcesContent`
// is a file of its own for allow comments, findings and positions (issue 19,
// item 6). The map is one JSON line, so read as one text a `keyward-ignore` in
// one source hid a key in another; and it was read source by source only when
// that first pass found something. Maps are built in code, keys at run time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from './gitFixtures.ts';

function sourceMap(pairs: [string, string][], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 3,
    file: 'main.js',
    sources: pairs.map(([name]) => name),
    sourcesContent: pairs.map(([, content]) => content),
    names: [],
    mappings: 'AAAA',
    ...extra,
  });
}

const where = (report: ReturnType<typeof json>) => report.findings.map((f) => `${f.path}:${f.line}:${f.column}`);

describe('keyward scan: a source map is read source by source', () => {
  it("an allow comment in one source does not hide a key in another (the map's one line held both): exit 1", () => {
    const dir = tempDir();
    const key = routerKey();
    const map = sourceMap([
      ['webpack:///src/a.ts', '// fixtures below are fake  keyward-ignore\nexport const a = 1;\n'],
      ['webpack:///src/b.ts', `export const b = 2;\nexport const apiKey = '${key}';\n`],
    ]);
    writeFileSync(join(dir, 'bundle.js.map'), map);
    writeFileSync(join(dir, 'app.zip'), zipSync({ 'dist/bundle.js.map': new TextEncoder().encode(map) }));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'bundle.js.map', 'app.zip']);
    expect(run.status).toBe(1);
    expect(where(json(run))).toEqual([
      'bundle.js.map!webpack:///src/b.ts:2:24',
      'app.zip!dist/bundle.js.map!webpack:///src/b.ts:2:24',
    ]);
    expect(run.stdout).not.toContain(key);
  });

  it('an allow comment still hides the key on its own line of its own source', () => {
    const dir = tempDir();
    const map = sourceMap([
      ['src/a.ts', `export const k = '${routerKey()}'; // keyward-ignore\n`],
      ['src/b.ts', `// keyward-disable\nexport const k2 = '${directKey()}';\n`],
    ]);
    writeFileSync(join(dir, 'main.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map']);
    expect(run.status).toBe(0);
    expect(json(run).findings).toEqual([]);
  });

  it('a keyward-disable left open in one source ends with it: the next source is scanned', () => {
    const dir = tempDir();
    const map = sourceMap([
      ['src/a.ts', '/* keyward-disable */\nexport const a = 1;\n'],
      ['src/b.ts', `export const k = '${directKey('svcacct')}';\n`],
    ]);
    writeFileSync(join(dir, 'main.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map']);
    expect(run.status).toBe(1);
    expect(where(json(run))).toEqual(['main.js.map!src/b.ts:1:19']);
  });

  it("a key in the map's own fields is reported at the map, whatever a source's comments say", () => {
    const dir = tempDir();
    const key = routerKey();
    const map = sourceMap([['src/a.ts', '// keyward-ignore keyward-disable\nexport const a = 1;\n']], { names: [key] });
    writeFileSync(join(dir, 'main.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.line, f.column === map.indexOf(key) + 1])).toEqual([
      ['main.js.map', 1, true],
    ]);
  });

  it('two sources with the same name are two files, named apart', () => {
    const dir = tempDir();
    const map = sourceMap([
      ['src/a.ts', `const k = '${routerKey()}';\n`],
      ['src/a.ts', `\nconst k = '${routerKey()}';\n`],
    ]);
    writeFileSync(join(dir, 'main.js.map'), map);
    expect(where(json(scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map'])))).toEqual([
      'main.js.map!src/a.ts:1:12',
      'main.js.map!src/a.ts[2]:2:12',
    ]);
  });

  it('a key spelled with JSON escapes (\\u0073k-…), which no byte search sees, is found in its source', () => {
    const dir = tempDir();
    const key = routerKey();
    const escaped = `\\u0073${key.slice(1, 10)}\\u00${key.charCodeAt(10).toString(16)}${key.slice(11)}`;
    const map = `{"version":3,"sources":["src/a.ts"],"sourcesContent":["const k = '${escaped}';\\n"],"mappings":"AAAA"}`;
    expect(JSON.parse(map).sourcesContent[0]).toContain(key);
    writeFileSync(join(dir, 'main.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map']);
    expect(run.status).toBe(1);
    expect(where(json(run))).toEqual(['main.js.map!src/a.ts:1:12']);
  });

  it("an index map's sections are read source by source too", () => {
    const dir = tempDir();
    const section = (name: string, content: string) => ({
      offset: { line: 0, column: 0 },
      map: { version: 3, sources: [name], sourcesContent: [content], mappings: 'AAAA', names: [] },
    });
    const map = JSON.stringify({
      version: 3,
      sections: [
        section('src/a.ts', '// keyward-ignore\n'),
        section('src/b.ts', `export const k = '${routerKey()}';\n`),
      ],
    });
    writeFileSync(join(dir, 'index.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'index.js.map']);
    expect(run.status).toBe(1);
    expect(where(json(run))).toEqual(['index.js.map!src/b.ts:1:19']);
  });

  it('a second "sourcesContent" (JSON.parse keeps the last) cannot hide the first: its key is reported at the map', () => {
    const dir = tempDir();
    const key = routerKey();
    const map = `{"version":3,"sources":["src/a.ts"],"sourcesContent":["const k = '${key}'; // keyward-ignore\\n"],"sourcesContent":["// clean\\n"],"mappings":"AAAA"}`;
    expect(JSON.parse(map).sourcesContent).toEqual(['// clean\n']);
    writeFileSync(join(dir, 'main.js.map'), map);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => f.path)).toEqual(['main.js.map']);
  });
});
