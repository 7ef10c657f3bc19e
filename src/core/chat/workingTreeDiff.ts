// The `#changes` reference: the working tree's changes against HEAD, staged and not, as `git diff` shows them.
// Through core/scan/git.ts, the one way Keyward runs git: a repository's config cannot start a program (no
// textconv, external diff, clean filter, pager or fsmonitor) and git gets no secret from the environment. What
// comes back is prompt text like any other, so the secret guard reads it before it is sent.
import { configuredFilters, gitMessage, runGit } from '../scan/git.ts';

export type DiffRead = { diff: string } | { why: 'noChanges' } | { why: 'unreadable'; detail: string };

/** The diff of the repository holding `folder`; with no commit yet, what is staged and what is not. */
export async function workingTreeDiff(folder: string): Promise<DiffRead> {
  // Comparing the working tree would run the repository's clean filters on each changed file: emptied here.
  const options = { filtersOff: await configuredFilters(folder) };
  const head = await runGit(['diff', 'HEAD', '--'], folder, options);
  let diff = head.stdout;
  if (head.code !== 0) {
    // A repository without a commit has no HEAD to compare with.
    if (!/bad revision|ambiguous argument 'HEAD'|unknown revision/.test(head.stderr))
      return { why: 'unreadable', detail: gitMessage(head.stderr) || `git exited with ${head.code}` };
    const staged = await runGit(['diff', '--cached', '--'], folder, options);
    const unstaged = await runGit(['diff', '--'], folder, options);
    const failed = [staged, unstaged].find((r) => r.code !== 0);
    if (failed) return { why: 'unreadable', detail: gitMessage(failed.stderr) || `git exited with ${failed.code}` };
    diff = staged.stdout + unstaged.stdout;
  }
  return diff.trim() === '' ? { why: 'noChanges' } : { diff: diff.replace(/\n$/, '') };
}
