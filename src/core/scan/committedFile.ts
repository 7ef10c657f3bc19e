// Reads a small file a repository commits to tell a scan what to do (.keywardignore, the baseline). Such a file is
// untrusted: committed as a symbolic link it could name an endless pseudo-file (/dev/zero) or a FIFO nobody writes
// to, and a read that follows it hangs or grows without end. So a link is not followed (git commits the link, not
// what it points to, and a team reviews the file it sees), only a regular file is read, and only up to a cap.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What reading such a file gave: its text, nothing there, or why it was not read (a sentence that names no path). */
export type CommittedFile = { text: string } | { missing: true } | { problem: string; link?: true };

export function readCommittedFile(path: string, maxBytes: number): CommittedFile {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO waits for a writer without it; a regular file reads the same either way.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    if (code === 'ELOOP') return { problem: 'a symbolic link; not followed', link: true };
    return { problem: `could not be read (${code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: 'not a regular file; not read' };
    const tooLarge = { problem: `larger than ${maxBytes} bytes; not read` };
    if (stat.size > maxBytes) return tooLarge;
    // A byte more than fstat said, to see a file that grew since; it may grow up to one byte past the cap.
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let read = 0;
    for (;;) {
      const n = readSync(fd, buffer, read, buffer.length - read, null);
      if (n === 0) break;
      read += n;
      if (read === buffer.length) {
        if (read > maxBytes) return tooLarge;
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown);
        buffer = grown;
      }
    }
    return { text: buffer.toString('utf8', 0, read) };
  } catch (error) {
    return { problem: `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}
