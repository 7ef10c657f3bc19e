// Whether a file name is a source map's, apart from the archive formats (formats.ts): the editor asks it of every
// document it scans, and the archive tables stay with the scans that read files (dist/common.js, bench/bundle.ts).

/** Whether a file name is a source map's. */
export function isSourceMap(name: string): boolean {
  // By character, not by a lowercased copy of the whole path: it runs for every file of a scan.
  const at = name.length - 4;
  return (
    at >= 0 &&
    name.charCodeAt(at) === 0x2e &&
    (name.charCodeAt(at + 1) | 0x20) === 0x6d &&
    (name.charCodeAt(at + 2) | 0x20) === 0x61 &&
    (name.charCodeAt(at + 3) | 0x20) === 0x70
  );
}
