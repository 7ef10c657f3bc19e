// Asks git about many files at once for GitStatusCache: two calls per repository, where status() asks two gits per
// file. Each git started from the editor's extension host stalls it while the process is copied, and a change of git's
// view grades every open document again (keyDiagnostics.ts): one by one, that was two gits per open document. Loaded on
// demand (dist/gitPrefetch.js), the first time there are several.
import { dirname, relative, resolve, sep } from 'node:path';
import { literalPath } from './git.ts';
import { type GitState, type GitStatusCache, realPathOf } from './gitStatus.ts';

/**
 * Keeps git's answer for each of `files` in `git` (status() then finds it); files outside a repository are left. False
 * when `git` was invalidated meanwhile: the answers were not kept, and a newer asking is under way.
 */
export async function prefetchStates(git: GitStatusCache, files: readonly string[]): Promise<boolean> {
  const generation = git.generation;
  const byRoot = new Map<string, { real: string; rel: string }[]>();
  for (const file of files) {
    const real = await realPathOf(resolve(file));
    const root = await git.root(dirname(real));
    const rel = root ? relative(root, real).split(sep).join('/') : '..';
    if (!root || rel.startsWith('..')) continue;
    const entries = byRoot.get(root) ?? [];
    entries.push({ real, rel });
    byRoot.set(root, entries);
  }
  for (const [root, entries] of byRoot) {
    const listed = await git.run(['ls-files', '-z', '--', ...entries.map((e) => literalPath(e.rel))], root);
    if (listed.code !== 0) continue;
    const tracked = new Set(listed.stdout.split('\0').filter(Boolean));
    const rest = entries.filter((e) => !tracked.has(e.rel)).map((e) => e.rel);
    const ignored = new Set<string>();
    if (rest.length > 0) {
      const checked = await git.run(['check-ignore', '-z', '--stdin'], root, rest.join('\0') + '\0');
      // 1: none of them is ignored; any other failure leaves these files to status().
      if (checked.code !== 0 && checked.code !== 1) continue;
      for (const rel of checked.stdout.split('\0')) if (rel) ignored.add(rel);
    }
    for (const { real, rel } of entries) {
      const state: GitState = tracked.has(rel) ? 'tracked' : ignored.has(rel) ? 'ignored' : 'untracked';
      git.keep(real, state, generation);
    }
  }
  return git.generation === generation;
}
