// Builds the three bundles: the extension host, the webview and the CLI.
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeCodicons } from './scripts/codicons.ts';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'info',
};

// The extension loads undici from its own file on the first request, so that
// activation does not parse the HTTP stack (and its llhttp wasm) up front.
const undiciOnDemand = {
  name: 'undici-on-demand',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

// The same for the archive unpackers (fflate, tar-stream, zlib): loaded on the first archive, so
// they are neither parsed at activation nor at the start of a scan, and the extension bundle keeps
// to its size budget (bench/bundle.ts).
const archiveOnDemand = {
  name: 'archive-on-demand',
  setup(build) {
    build.onResolve({ filter: /[\\/]archiveCodecs\.ts$/ }, () => ({
      path: './archive.js',
      external: true,
    }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const bundles = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['vscode'],
    plugins: [undiciOnDemand, archiveOnDemand],
  },
  {
    ...common,
    entryPoints: ['src/core/undiciLean.cjs'],
    outfile: 'dist/undici.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  {
    ...common,
    entryPoints: ['src/core/scan/archiveCodecs.ts'],
    outfile: 'dist/archive.js',
    platform: 'node',
    format: 'cjs',
    // The CLI's scan uses it too, on Node 20.
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    // `scan` and `install-hook` run on Node 20 (pre-commit may run hooks on the system's);
    // `ask` and `status` check for 22, which undici needs, before loading it.
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    define: { KEYWARD_VERSION: JSON.stringify(version) },
    // `keyward scan` should not parse the HTTP stack it never uses, nor the unpackers before an archive.
    plugins: [undiciOnDemand, archiveOnDemand],
  },
];

// The repository is an ES module package; the bundles are CommonJS, which is what
// the extension host's loader and a plain `node dist/cli.js` expect.
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
await writeCodicons('dist');

if (watch) {
  const contexts = await Promise.all(bundles.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(bundles.map((options) => esbuild.build(options)));
}
