// A long generated history for the split history scan's tests (scanHistorySplit.test.ts), written with git
// fast-import (hundreds of commits in a fraction of a second): keys added across many commits, the same key again
// in the same and in another file, a binary file, a zip archive, UTF-16 text, a file deleted and added back, and a
// branch merged with a key of the merge's own.
import { execFileSync } from 'node:child_process';
import { strToU8, zipSync } from 'fflate';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import type { Repo } from './gitFixtures.ts';

const STAMP = 'author t <t@keyward.test> 1700000000 +0000\ncommitter t <t@keyward.test> 1700000000 +0000\n';

/** Writes fast-import's stream: each piece's length counted in bytes. */
class Stream {
  readonly parts: Buffer[] = [];
  private mark = 0;

  text(line: string): void {
    this.parts.push(Buffer.from(line));
  }

  data(bytes: Buffer | string): void {
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    this.text(`data ${buffer.length}\n`);
    this.parts.push(buffer, Buffer.from('\n'));
  }

  /** A commit on `branch` after `from` (and `merge`), writing `files` (null deletes); its mark. */
  commit(
    branch: string,
    message: string,
    files: Record<string, Buffer | string | null>,
    from?: number | string,
    merge?: number | string,
  ): number {
    const mark = ++this.mark;
    this.text(`commit refs/heads/${branch}\nmark :${mark}\n${STAMP}`);
    this.data(message);
    if (from !== undefined) this.text(`from ${typeof from === 'number' ? `:${from}` : from}\n`);
    if (merge !== undefined) this.text(`merge ${typeof merge === 'number' ? `:${merge}` : merge}\n`);
    for (const [path, content] of Object.entries(files)) {
      if (content === null) this.text(`D ${path}\n`);
      else {
        this.text(`M 100644 inline ${path}\n`);
        this.data(content);
      }
    }
    this.text('\n');
    return mark;
  }
}

/**
 * Adds a history of `commits` commits (and a merged branch of `branch` more) to `repo`, after `base` (a commit of
 * the repository, when it has one); the keys it holds.
 */
export function writeLongHistory(repo: Repo, commits: number, branch = 80, base?: string): string[] {
  const stream = new Stream();
  const keys: string[] = [];
  const key = (i: number) => {
    const k = i % 3 === 0 ? routerKey() : directKey(i % 2 ? 'proj' : 'legacy');
    keys.push(k);
    return k;
  };
  const versions = new Map<string, string>();
  const edit = (path: string, line: string) => {
    const text = (versions.get(path) ?? '') + line;
    versions.set(path, text);
    return text;
  };
  let last: number | string | undefined = base;
  let fork: number | string | undefined;
  let again = '';
  for (let i = 0; i < commits; i++) {
    const files: Record<string, Buffer | string | null> = {};
    const path = `src/f${i % 40}.js`;
    files[path] = edit(path, `export const v${i} = ${i};\n${i % 17 === 0 ? `const k${i} = "${key(i)}";\n` : ''}`);
    if (i === 20) again = keys.at(-1)!;
    // The same key again: later in the same file (reported once), and in another file (reported there too).
    if (i === 60) files['src/f0.js'] = edit('src/f0.js', `const again = "${again}";\n`);
    if (i === 61) files['docs/copy.md'] = `Copied: ${again}\n`;
    if (i === 100)
      files['bin/app.bin'] = Buffer.concat([Buffer.from([0, 1, 0]), Buffer.from(key(i)), Buffer.from([0])]);
    if (i === 150)
      files['dist/bundle.zip'] = Buffer.from(zipSync({ 'conf/.env': [strToU8(`KEY=${key(i)}\n`), { level: 6 }] }));
    if (i === 200) files['win/notes.txt'] = Buffer.from(`\ufeffKEY=${key(i)}\r\n`, 'utf16le');
    if (i === 250) files['docs/copy.md'] = null;
    if (i === 300) files['docs/copy.md'] = `Back: ${again}\n`;
    last = stream.commit('main', `commit ${i}`, files, last);
    if (i === Math.floor(commits / 2)) fork = last;
  }
  let side = fork;
  for (let j = 0; j < branch; j++) {
    const path = `side/s${j % 9}.env`;
    side = stream.commit(
      'side',
      `side ${j}`,
      { [path]: edit(path, `V${j}=1\n${j % 11 === 0 ? `K=${key(j)}\n` : ''}`) },
      side,
    );
  }
  // The merge writes a key of its own: only --cc shows it.
  stream.commit('main', 'merge side', { 'merged.env': `MERGED=${key(1)}\n` }, last, side);
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: repo.dir,
    input: Buffer.concat(stream.parts),
    env: { PATH: process.env.PATH ?? '', HOME: repo.dir, GIT_CONFIG_NOSYSTEM: '1' },
  });
  // The work tree as the last commit left it (a repository with a history of its own keeps its work tree).
  if (base === undefined) repo.git('reset', '-q', '--hard', 'main');
  return keys;
}
