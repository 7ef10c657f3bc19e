// A file's path as git sees it, through any symlinked folder it was opened by, and what git says of the file.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type * as vscode from 'vscode';
import type { GitStatusCache } from '../../core/scan/gitStatus.ts';
import type { FileState } from './diagnosticWording.ts';

/**
 * The real path of a file (or of its folder, when the file does not exist yet):
 * a file opened through a symlinked folder is graded where git sees it.
 */
export async function realFilePath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path));
  }
}

/** Where git stands on a saved file, asked with real paths and only in a trusted workspace. */
export async function fileGitState(git: GitStatusCache, uri: vscode.Uri, trusted: boolean): Promise<FileState> {
  if (uri.scheme !== 'file') return 'outside';
  if (!trusted) return 'restricted';
  const real = await realFilePath(uri.fsPath);
  const state = await git.status(real);
  // "Not in a git repository" only when there is none: a .git that git refuses must not pass for that.
  if (state === 'outside' && (await git.refusal(dirname(real)))) return 'refused';
  return state;
}
