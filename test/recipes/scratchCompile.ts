// Measures what a new id costs: copies src/ to a temporary folder, lets the caller change one file (add a scratch id
// to a list), runs the pinned TypeScript compiler over the copy and returns the files it flags. The recipes in
// CONTRIBUTING.md promise how short that list is; the tests that call this keep the promise true.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/lib/tsc.js');

/** One whole-program type check of src/: on a loaded 2-core machine it may take a minute. */
export const COMPILE_MS = 240_000;

export async function filesFlaggedAfter(file: string, edit: (text: string) => string): Promise<string[]> {
  return withScratchSrc({ [file]: edit }, async (_dir, flagged) => flagged);
}

/**
 * Copies src/ to a temporary folder, applies each edit (a file absent from src/ starts as ''), type-checks the copy
 * and hands the caller its folder (to run what it built) and the files the compiler flags; removes the copy after.
 */
export async function withScratchSrc<T>(
  edits: Record<string, (text: string) => string>,
  use: (dir: string, flagged: string[]) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-recipe-'));
  try {
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: ['src'] }));
    for (const [file, edit] of Object.entries(edits)) {
      const target = join(dir, file);
      const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
      const after = edit(before);
      if (after === before) throw new Error(`the edit changed nothing in ${file}`);
      writeFileSync(target, after);
    }
    const output = await promisify(execFile)(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? '',
    );
    const files = new Set<string>();
    for (const line of output.split('\n')) {
      const match = /^(src\/[^(]+)\(\d+,\d+\): error /.exec(line);
      if (match) files.add(match[1]!);
    }
    return await use(dir, [...files].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
