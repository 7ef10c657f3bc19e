// The unpackers archive.ts needs, in one module it loads on the first archive. The bundles
// build it into its own file (dist/archive.js, see esbuild.js), as undici is: an activation or a
// scan that meets no archive does not parse fflate and tar-stream nor load zlib.
export { unzipSync } from 'fflate';
export { gunzipSync } from 'node:zlib';
export { extract } from 'tar-stream';
