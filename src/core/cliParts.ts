// The files a built `keyward` is made of. Its launcher (dist/cli.js, or dist/keyward.js in the npm package) is
// small: it turns on Node's compile cache and loads the bundle (src/cli/launch.ts); the bundle loads the archive
// unpackers on the first archive and the HTTP stack on the first request, each from a file beside it.

/** The CLI's bundle, beside its launcher. */
export const CLI_MAIN = 'cliMain.js';

/** The program of a large scan's worker threads (src/core/scan/scanPool.ts), beside the bundle. */
export const CLI_SCAN_POOL = 'scanPool.js';

/**
 * What a copy of the launcher needs beside it to scan (a pre-commit hook's copy): the bundle, the unpackers and
 * the worker threads' program.
 */
export const CLI_SCAN_PARTS: readonly string[] = [CLI_MAIN, 'archive.js', CLI_SCAN_POOL];
