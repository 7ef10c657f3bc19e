// The least a Node program must do to scan a flat folder (bench/scanFloor.ts): start, list the folder, and read each
// file through once as keyward's reader does (open, read into one reused buffer through readv, close), with no
// scanning at all. JavaScript, not TypeScript: Node's type stripping costs ~130 ms at start here, which keyward's
// bundle (dist/cli.js) does not pay. Usage: node bench/readLoop.js FOLDER
import { closeSync, constants, openSync, readdirSync, readvSync } from 'node:fs';

const folder = process.argv[2];
if (!folder) throw new Error('usage: node bench/readLoop.js FOLDER');
const buffer = Buffer.allocUnsafe(16 << 20);
const buffers = [buffer];
const prefix = folder.endsWith('/') ? folder : `${folder}/`;
let bytes = 0;
for (const entry of readdirSync(folder, { withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const fd = openSync(prefix + entry.name, constants.O_RDONLY);
  try {
    // A short read of a regular file is all of it, as keyward's reader takes it: one read for most files.
    for (;;) {
      const n = readvSync(fd, buffers);
      bytes += n;
      if (n < buffer.length) break;
    }
  } finally {
    closeSync(fd);
  }
}
// Used, so that no engine could drop the reads as dead code.
if (bytes < 0) process.stdout.write(`${bytes}\n`);
