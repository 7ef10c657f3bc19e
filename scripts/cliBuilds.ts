// The CLI's two bundles, for `npm run build` (esbuild.js) and the npm package (packageCli.ts): a small launcher,
// the `keyward` bin, which turns on Node's compile cache and loads the bundle (cliMain.js beside it, see
// src/cli/launch.ts).
import type { BuildOptions, Plugin } from 'esbuild';
import { dirname, join } from 'node:path';
import { CLI_MAIN, CLI_SCAN_POOL } from '../src/core/cliParts.ts';

const root = join(import.meta.dirname, '..');

// `keyward scan` does not parse the HTTP stack it never uses, nor the unpackers before an archive: each is a file
// of its own beside the bundle, loaded on first use.
const onDemand: Plugin = {
  name: 'cli-on-demand',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
    build.onResolve({ filter: /[\\/]archiveCodecs\.ts$/ }, () => ({ path: './archive.js', external: true }));
  },
};

/** The launcher written to `launcher`, the bundle beside it; `options` are the build's own (minify, maps). */
export function cliBuilds(launcher: string, options: BuildOptions, version: string): BuildOptions[] {
  const cli: BuildOptions = {
    ...options,
    platform: 'node',
    format: 'cjs',
    // `scan` and `install-hook` run on Node 20 (pre-commit may run hooks on the system's);
    // `ask` and `status` check for 22, which undici needs, before loading it.
    target: 'node20',
  };
  return [
    {
      ...cli,
      entryPoints: [join(root, 'src/cli/launch.ts')],
      outfile: launcher,
      banner: { js: '#!/usr/bin/env node' },
    },
    {
      ...cli,
      entryPoints: [join(root, 'src/cli/main.ts')],
      outfile: join(dirname(launcher), CLI_MAIN),
      define: { KEYWARD_VERSION: JSON.stringify(version) },
      plugins: [onDemand],
      // Those loads as require(), not import(): the launcher runs the bundle as a vm.Script, which has no module
      // loader of its own for import() (Node's for it is experimental and warns).
      supported: { 'dynamic-import': false },
    },
    {
      ...cli,
      // The worker threads of a large scan (src/core/scan/scanPool.ts): only the file scan, beside the bundle.
      entryPoints: [join(root, 'src/core/scan/scanPoolWorker.ts')],
      outfile: join(dirname(launcher), CLI_SCAN_POOL),
      plugins: [onDemand],
    },
  ];
}
