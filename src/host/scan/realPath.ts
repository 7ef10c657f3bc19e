// A file's path as git sees it, through any symlinked folder it was opened by.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
