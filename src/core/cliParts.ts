// The files a built `keyward` is made of. Its launcher (dist/cli.js, or dist/keyward.js in the npm package) is
// small: it turns on Node's compile cache and loads the bundle (src/cli/launch.ts); the bundle loads the archive
// unpackers on the first archive and the HTTP stack on the first request, each from a file beside it.

/** The CLI's bundle, beside its launcher. */
export const CLI_MAIN = 'cliMain.js';

/** What a copy of the launcher needs beside it to scan (a pre-commit hook's copy): the bundle and the unpackers. */
export const CLI_SCAN_PARTS: readonly string[] = [CLI_MAIN, 'archive.js'];
