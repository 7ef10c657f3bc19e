// .keywardignore parsing and matching. Fingerprint lines follow gitleaks' .gitleaksignore (one
// entry a line, '#' comments; gitleaks/gitleaks detect/ignore.go), path lines read globs as
// .gitignore does (a name without '/' at any depth, a leading '/' anchors, a folder covers what
// is in it). Unlike both, every entry carries its reason, and a bad line suppresses nothing.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globToRegExp, loadIgnoreFile, parseIgnoreFile, suppressionFor } from '../../../src/core/scan/ignoreFile.ts';
import { tempDir } from '../../cli/gitFixtures.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

const FP = '0123456789abcdef';

describe('.keywardignore', () => {
  it('reads fingerprints with their reason, with or without "#", and comments and blank lines', () => {
    const rules = parseIgnoreFile(
      `# keys we keep\n\n${FP}  revoked test key\r\n${FP.toUpperCase().replace('0', 'f')} # the docs' example\n`,
    );
    expect(rules.problems).toEqual([]);
    expect(suppressionFor(rules, 'any/where.ts', FP)).toEqual({
      file: '.keywardignore',
      line: 3,
      kind: 'fingerprint',
      reason: 'revoked test key',
    });
    expect(suppressionFor(rules, 'x', `f${FP.slice(1)}`)).toMatchObject({ line: 4, reason: "the docs' example" });
    expect(suppressionFor(rules, 'x', 'ffffffffffffffff')).toBeUndefined();
  });

  it.each<[string, string[], string[]]>([
    ['fixtures/', ['fixtures/a.ts', 'pkg/fixtures/deep/b.ts'], ['fixtures.ts', 'src/fixtures.ts']],
    ['/fixtures/', ['fixtures/a.ts'], ['pkg/fixtures/b.ts']],
    ['test/data/*.json', ['test/data/k.json'], ['test/data/sub/k.json', 'test/data/k.jsonx', 'x/test/data/k.json']],
    ['docs/**/*.md', ['docs/a.md', 'docs/x/y/b.md'], ['docs/a.mdx', 'other/docs/a.md']],
    ['*.snap', ['a.snap', 'src/__snapshots__/b.snap'], ['a.snap.ts']],
    ['key?.txt', ['key1.txt', 'a/keyZ.txt'], ['key12.txt', 'key/.txt']],
    ['k[0-9].env', ['k1.env'], ['ka.env']],
    ['k[!0-9].env', ['ka.env'], ['k1.env']],
    ['**/gen', ['gen', 'a/b/gen/c.ts'], ['agen']],
    ['a.b+c', ['a.b+c'], ['aXb+c', 'a.bbc']],
  ])('the glob %s matches %j and not %j', (glob, yes, no) => {
    const re = globToRegExp(glob);
    for (const path of yes) expect([path, re.test(path)]).toEqual([path, true]);
    for (const path of no) expect([path, re.test(path)]).toEqual([path, false]);
  });

  it('a path covers the entries of an archive under it (dist/a.vsix!extension/x.js)', () => {
    const rules = parseIgnoreFile('dist/  # build output, scanned in CI separately\n');
    expect(suppressionFor(rules, 'dist/a.vsix!extension/x.js', FP)).toMatchObject({ kind: 'path', line: 1 });
    expect(suppressionFor(parseIgnoreFile('*.vsix  # r\n'), 'dist/a.vsix!extension/x.js', FP)).toMatchObject({
      line: 1,
    });
  });

  it('a malformed line is named by file and line and suppresses nothing; the others still work', () => {
    const rules = parseIgnoreFile(
      [
        'src/  # ok',
        'config.ts', // no reason
        FP, // fingerprint without reason
        '!src/keep.ts  # un-ignore',
        '**  # everything',
        '*  # everything',
        'bad[x  # unclosed',
        `${FP.slice(1)}  reason`, // 15 hex: neither fingerprint nor "path  # reason"
        '#  comment',
      ].join('\n'),
      'sub/.keywardignore',
    );
    expect(rules.problems.map((p) => [p.file, p.line])).toEqual([
      ['sub/.keywardignore', 2],
      ['sub/.keywardignore', 3],
      ['sub/.keywardignore', 4],
      ['sub/.keywardignore', 5],
      ['sub/.keywardignore', 6],
      ['sub/.keywardignore', 7],
      ['sub/.keywardignore', 8],
    ]);
    expect(rules.problems[0]!.message).toMatch(/path with its reason/);
    expect(rules.problems[1]!.message).toMatch(/fingerprint needs its reason/);
    expect(rules.problems[3]!.message).toMatch(/would suppress every file/);
    expect(rules.entries).toHaveLength(1);
    expect(suppressionFor(rules, 'config.ts', FP)).toBeUndefined();
    expect(suppressionFor(rules, 'src/a.ts', 'ffffffffffffffff')).toMatchObject({ line: 1 });
  });

  // Issue 35 §4: the reason in the comment block directly above, as .gitignore and .gitleaksignore files are written.
  it('takes the comment block directly above an entry as its reason; inline reasons still win', () => {
    const rules = parseIgnoreFile(
      [
        '# revoked example key in the docs',
        FP,
        '',
        '# generated fixtures,',
        '#   never live',
        'test/fixtures/',
        '# the block above an entry with its own reason',
        `${FP.replace('0', 'e')}  rotated 2026-11`,
      ].join('\n'),
    );
    expect(rules.problems).toEqual([]);
    expect(suppressionFor(rules, 'docs/a.md', FP)).toEqual({
      file: '.keywardignore',
      line: 2,
      kind: 'fingerprint',
      reason: 'revoked example key in the docs',
    });
    expect(suppressionFor(rules, 'test/fixtures/k.ts', 'ffffffffffffffff')).toEqual({
      file: '.keywardignore',
      line: 6,
      kind: 'path',
      reason: 'generated fixtures, never live',
    });
    expect(suppressionFor(rules, 'x', FP.replace('0', 'e'))).toMatchObject({ line: 8, reason: 'rotated 2026-11' });
  });

  it('an entry with no reason at all stays refused, by line: a blank line or an entry breaks the block', () => {
    const rules = parseIgnoreFile(
      [
        '# revoked example key in the docs',
        '',
        FP, // a blank line between: no reason
        '# fixtures',
        'test/fixtures/',
        'docs/', // an entry above, not a comment
        '#',
        'config.ts', // an empty comment says nothing
        '# a path and words: the words were meant as its reason, not part of the path',
        'config.ts generated',
      ].join('\n'),
    );
    expect(rules.problems.map((p) => [p.line, p.message])).toEqual([
      [3, expect.stringMatching(/^a fingerprint needs its reason .* or in a # comment on the line above$/)],
      [6, expect.stringMatching(/^neither a fingerprint .* nor a path with its reason .*# comment on the line above/)],
      [8, expect.stringMatching(/^neither a fingerprint/)],
      [10, expect.stringMatching(/^neither a fingerprint/)],
    ]);
    expect(rules.entries.map((e) => e.line)).toEqual([5]);
    expect(suppressionFor(rules, 'x', FP)).toBeUndefined();
  });

  it('a key in the comment above is masked in the reason', () => {
    const key = routerKey();
    const rules = parseIgnoreFile(`# was ${key}\n${FP}\n`);
    expect(rules.entries).toHaveLength(1);
    expect(JSON.stringify(rules.entries.map((e) => e.reason))).not.toContain(key);
  });

  it('a key pasted into a reason or a bad line is masked in what is reported', () => {
    const key = routerKey();
    const rules = parseIgnoreFile(`${FP}  was ${key}\n${key}\n`);
    expect(JSON.stringify(rules.entries.map((e) => e.reason))).not.toContain(key);
    expect(JSON.stringify(rules.problems)).not.toContain(key);
  });

  it('a .keywardignore that is a symbolic link is not followed: named, and nothing in it applies', () => {
    const dir = tempDir();
    const elsewhere = join(tempDir(), 'rules');
    writeFileSync(elsewhere, 'src/  # would hide everything in src\n');
    symlinkSync(elsewhere, join(dir, '.keywardignore'));
    expect(loadIgnoreFile(dir)).toEqual({
      file: '.keywardignore',
      entries: [],
      problems: [{ file: '.keywardignore', line: 0, message: 'a symbolic link; not followed, nothing in it applies' }],
    });
    expect(loadIgnoreFile(tempDir())).toBeUndefined();
  });
});

// Issue 31 item 9: "covers everything" is decided by what an entry matches, not by its spelling.
describe('.keywardignore: an entry that would cover every file, or most of them, is refused', () => {
  const refusal = (glob: string) => {
    const rules = parseIgnoreFile(`${glob}  # generated\n`);
    return { entries: rules.entries.length, message: rules.problems[0]?.message };
  };

  it.each([
    '*',
    '**',
    '?*',
    '*?',
    '**/*',
    '**/**',
    '/**/*',
    '**/?*',
    '[!\\n]*',
    '[!/]*',
    '[!x]*',
    '*[!/]',
    '[a-zA-Z0-9._-]*',
  ])('%s: every file', (glob) => {
    const { entries, message } = refusal(glob);
    expect(entries).toBe(0);
    expect(message).toMatch(/would suppress (every file|most files)/);
  });

  it.each(['*.*', '*/**', '*/*', '*/', '/*/', '**/*.*', '[!n]*', '[!.]*', '?*.*', '**/?*/**'])(
    '%s: most files, named as such with examples of what it would hide',
    (glob) => {
      const { entries, message } = refusal(glob);
      expect(entries).toBe(0);
      expect(message).toMatch(/would suppress (every file|most files)/);
    },
  );

  it('names what a near-universal entry matches, so the team sees the size of it', () => {
    expect(refusal('*.*').message).toMatch(
      /^"\*\.\*" would suppress most files \(\d+ of \d+ ordinary paths, as src\/app\.ts, .*\): name the files or folders$/,
    );
    expect(refusal('?*').message).toBe('"?*" would suppress every file: name the files or folders');
  });

  it('a leading "./" matches nothing (paths are read from the ignore file\'s folder): refused, named', () => {
    for (const glob of ['./*', './docs/', './']) {
      const { entries, message } = refusal(glob);
      expect([glob, entries]).toEqual([glob, 0]);
      expect(message).toMatch(/"\.\/"|every file/);
    }
  });

  it.each([
    'docs/*.md',
    '*.test.ts',
    'test/',
    'tests/',
    '**/fixtures/**',
    '*.json',
    '*.md',
    '.*',
    'node_modules/',
    'vendor/**',
    'src/*.ts',
    '*.min.js',
    '{*,.*}',
    'k[!0-9].env',
  ])('%s: a narrow entry is accepted', (glob) => {
    expect(refusal(glob)).toEqual({ entries: 1, message: undefined });
  });

  it('"{*,.*}" is no alternation (.gitignore has none): it names only a file spelled that way', () => {
    const rules = parseIgnoreFile('{*,.*}  # x\n');
    expect(suppressionFor(rules, 'src/app.ts', FP)).toBeUndefined();
    expect(suppressionFor(rules, '.env', FP)).toBeUndefined();
    expect(suppressionFor(rules, '{a,.b}', FP)).toMatchObject({ line: 1 });
  });
});
