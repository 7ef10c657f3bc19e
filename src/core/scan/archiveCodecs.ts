// The unpackers archive.ts needs, in one module it loads on the first archive. The bundles
// build it into its own file (dist/archive.js, see esbuild.js), as undici is: an activation or a
// scan that meets no archive does not parse tar-stream or the zip reader nor load zlib.
export { gunzipSync, zstdDecompressSync } from 'node:zlib';
export { extract } from 'tar-stream';
export { unpackEntry, zipEntryList } from './zipReader.ts';
