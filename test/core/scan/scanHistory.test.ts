// History scans read `git log -p` as it streams: the same findings however the
// output is cut, paths as git quotes them, binary files and very long lines
// searched, git's failure an error (never "no key found"), cancel honoured.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { runGitBuffer } from '../../../src/core/scan/git.ts';
import { HISTORY_LOG_ARGS, HistoryError, countCommits, scanHistory } from '../../../src/core/scan/history.ts';
import { HistoryParser, unquotePath } from '../../../src/core/scan/historyParser.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { type Repo, makeRepo } from '../../cli/gitFixtures.ts';

let repo: Repo;
const keys = {
  first: routerKey(),
  unicode: directKey('proj'),
  binary: routerKey(),
  long: routerKey(),
  plusplus: directKey('legacy'),
  second: routerKey(),
  subject: routerKey(),
};

beforeAll(() => {
  repo = makeRepo();
  repo.write('app.env', `A=1\nKEY=${keys.first}\n`);
  repo.write('é dir/naïve.env', `KEY=${keys.unicode}\n`);
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'first');
  repo.write('bundle.bin', Buffer.concat([Buffer.from([0, 0, 1, 2]), Buffer.from(keys.binary), Buffer.from([0, 255])]));
  repo.write('min.js', `var a="${'x'.repeat(3 << 20)}",k="${keys.long}";\n`);
  // An added line that reads "++ b/x" shows as "+++ b/x" in the diff: it is content, not a file header.
  repo.write('notes.md', `one\n++ b/elsewhere.txt\nkey ${keys.plusplus}\n`);
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', `second, mentions ${keys.subject}`);
  repo.write('app.env', `A=1\nB=2\nKEY=${keys.first}\nNEW=${keys.second}\n`);
  repo.git('commit', '-q', '-am', 'third');
});
afterAll(() => repo.remove());

const view = (f: { path: string; finding: { line: number; column: number; fingerprint: string } }) => [
  f.path,
  f.finding.line + 1,
  f.finding.column + 1,
  f.finding.fingerprint,
];

describe('history scan', () => {
  it('reports each key once, in the commit that added it, with its file and line', async () => {
    const result = await scanHistory(repo.dir);
    expect(result.cancelled).toBe(false);
    expect(result.commits).toBe(3);
    expect(result.findings.map(view).sort()).toEqual(
      [
        ['app.env', 2, 5, fingerprint(keys.first)],
        ['app.env', 4, 5, fingerprint(keys.second)],
        ['bundle.bin', 1, 5, fingerprint(keys.binary)],
        ['min.js', 1, (3 << 20) + 13, fingerprint(keys.long)],
        ['notes.md', 3, 5, fingerprint(keys.plusplus)],
        ['é dir/naïve.env', 1, 5, fingerprint(keys.unicode)],
      ].sort(),
    );
    const first = result.findings.find((f) => f.finding.fingerprint === fingerprint(keys.first))!;
    expect(first.subject).toBe('first');
    const second = result.findings.find((f) => f.path === 'notes.md')!;
    expect(second.subject).toMatch(/^second, mentions sk-or-v1-…/);
    expect(JSON.stringify(result)).not.toContain(keys.subject);
    expect(await countCommits(repo.dir)).toBe(3);
  });

  it('finds the same however the stream is cut', async () => {
    const log = (await runGitBuffer(HISTORY_LOG_ARGS, repo.dir)).stdout;
    const whole = new HistoryParser();
    whole.push(log);
    const expected = whole.end().map(view);
    fc.assert(
      fc.property(fc.array(fc.nat(log.length), { maxLength: 40 }), (cuts) => {
        const parser = new HistoryParser();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          parser.push(log.subarray(at, cut));
          at = cut;
        }
        parser.push(log.subarray(at));
        expect(parser.end().map(view)).toEqual(expected);
      }),
      { numRuns: 12 },
    );
  });

  it('reads a merge with three parents the same however the stream is cut, and only what the merge wrote', async () => {
    const merged = makeRepo();
    const keys = { octopus: routerKey(), a: routerKey(), b: directKey('proj') };
    merged.write('f.env', 'X=0\n');
    merged.git('add', '.');
    merged.git('commit', '-q', '-m', 'root');
    merged.git('branch', 'a');
    merged.git('branch', 'b');
    merged.git('checkout', '-q', 'a');
    merged.write('a.env', `A=${keys.a}\n`);
    merged.git('add', '.');
    merged.git('commit', '-q', '-m', 'a');
    merged.git('checkout', '-q', 'b');
    merged.write('b.env', `B=${keys.b}\n`);
    merged.git('add', '.');
    merged.git('commit', '-q', '-m', 'b');
    merged.git('checkout', '-q', 'main');
    merged.git('merge', '-q', '--no-commit', '--no-ff', 'a', 'b');
    merged.write('f.env', `X=0\nO=${keys.octopus}\n`);
    merged.git('add', '.');
    merged.git('commit', '-q', '-m', 'octopus');
    const log = (await runGitBuffer(HISTORY_LOG_ARGS, merged.dir)).stdout;
    expect(log.toString('latin1')).toMatch(/^@@@@ /m);
    const whole = new HistoryParser();
    whole.push(log);
    const expected = whole.end().map(view);
    expect(expected.sort()).toEqual(
      [
        ['a.env', 1, 3, fingerprint(keys.a)],
        ['b.env', 1, 3, fingerprint(keys.b)],
        ['f.env', 2, 3, fingerprint(keys.octopus)],
      ].sort(),
    );
    fc.assert(
      fc.property(fc.array(fc.nat(log.length), { maxLength: 40 }), (cuts) => {
        const parser = new HistoryParser();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          parser.push(log.subarray(at, cut));
          at = cut;
        }
        parser.push(log.subarray(at));
        expect(parser.end().map(view).sort()).toEqual(expected);
      }),
      { numRuns: 30 },
    );
    merged.remove();
  });

  it('reads whole the binary files a merge wrote, named by its combined diff alone (no "+++" line)', () => {
    const parser = new HistoryParser();
    const [merge, blob, zip] = ['c'.repeat(40), 'b'.repeat(40), 'a'.repeat(40)];
    const none = '0'.repeat(40);
    parser.push(
      Buffer.from(
        [
          `\0commit ${merge} merge side`,
          '',
          'diff --cc "w\\303\\251.txt"',
          `index ${none},${none}..${blob}`,
          'new file mode 100644',
          'Binary files differ',
          'diff --cc bundle.zip',
          `index ${none},${none}..${zip}`,
          'Binary files differ',
          'diff --cc gone.bin',
          `index ${zip},${zip}..${none}`,
          'deleted file mode 100644',
          'Binary files differ',
          '',
        ].join('\n'),
      ),
    );
    parser.end();
    expect(parser.wholeBlobs()).toEqual([
      { path: 'wé.txt', oid: blob, commit: merge, subject: 'merge side' },
      { path: 'bundle.zip', oid: zip, commit: merge, subject: 'merge side' },
    ]);
  });

  it('a git failure is an error, never "no key found"', async () => {
    const broken = makeRepo();
    broken.write('a.txt', 'a\n');
    broken.git('add', '.');
    broken.git('commit', '-q', '-m', 'a');
    const objects = join(broken.dir, '.git', 'objects');
    for (const dir of readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d)))
      rmSync(join(objects, dir), { recursive: true });
    await expect(scanHistory(broken.dir)).rejects.toThrow(HistoryError);
    await expect(scanHistory(join(broken.dir, '.git', 'nowhere'))).rejects.toThrow();
    broken.remove();
  });

  it('stops when cancelled and says so', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const result = await scanHistory(
      repo.dir,
      {},
      {
        signal: controller.signal,
        onProgress: (n) => {
          seen.push(n);
          controller.abort();
        },
      },
    );
    expect(result.cancelled).toBe(true);
    // One pipe chunk may carry several commits: the first report counts at least one.
    expect(seen[0]).toBeGreaterThanOrEqual(1);
  });

  it('an empty repository has no history and no error', async () => {
    const empty = makeRepo();
    expect(await scanHistory(empty.dir)).toEqual({ findings: [], skipped: [], commits: 0, cancelled: false });
    empty.remove();
  });

  it('undoes git quoting of paths', () => {
    expect(unquotePath('"b/\\303\\251 \\"x\\"\\t.env"')).toBe('b/é "x"\t.env');
    expect(unquotePath('b/plain.env')).toBe('b/plain.env');
  });
});
