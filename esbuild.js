// Builds the three bundles: the extension host (with the parts it loads on demand), the webview and the CLI.
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { cliBuilds } from './scripts/cliBuilds.ts';
import { writeCodicons } from './scripts/codicons.ts';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const require = createRequire(import.meta.url);

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

// Parts of the extension that only a command uses, each in a file of its own that the command imports on its
// first run (a dynamic import in the source): activation parses none of them and dist/extension.js keeps nearer
// its size budget (bench/bundle.ts). The CLI keeps them inline (`scan --history` and `install-hook` use them
// from the start).
const ON_DEMAND = {
  'src/core/scan/history.ts': 'history.js',
  // The other commands, with the pre-commit hook's installer: as a file of its own (6.5 KB) it cost a second load
  // (about 1 ms) on Install Pre-commit Hook's first run and spared commands.js nothing measurable.
  'src/host/onDemandCommands.ts': 'commands.js',
  // The chat session, built when a chat first opens (src/host/chat/chatSessionOnDemand.ts).
  'src/host/chat/chatSession.ts': 'chatSession.js',
  // The wire clients, loaded by a service module's open() on the first client (src/core/wire/wireClients.ts).
  'src/core/wire/wireClients.ts': 'wireClients.js',
  // The language model provider's request handling, loaded on the first request (src/host/lm/lmRequests.ts).
  'src/host/lm/lmRequests.ts': 'lmRequests.js',
  // The archive walker, loaded on the first archive a workspace scan meets (src/host/scan/keyDiagnostics.ts); the CLI
  // keeps it inline.
  'src/core/scan/archive.ts': 'archiveScan.js',
  // Scanning bytes of any size in windows, which the workspace and history scans share (each requires it).
  'src/core/scan/streamScan.ts': 'streamScan.js',
  // The source-map reader, which the workspace scan and a source map open in the editor load
  // (src/host/scan/keyDiagnostics.ts).
  'src/core/scan/sourceMap.ts': 'sourceMap.js',
  // A team's rules (the TOML reader, the RE2 reading and its checks), loaded on the first workspace root holding a
  // .keyward.toml (src/host/scan/teamRuleFiles.ts); the CLI keeps it inline.
  'src/core/scan/teamRulesFile.ts': 'teamRules.js',
  // The hover's text over a flagged key, loaded on the first hover over one (src/host/scan/keyHover.ts).
  'src/host/scan/keyHoverText.ts': 'keyHover.js',
  // The scanner thread's driver, loaded with the first large document (src/host/scan/scanThreadOnDemand.ts).
  'src/core/scan/scanThread.ts': 'scanThread.js',
  // Git asked about every open document at once, loaded the first time git's view changes with several open
  // (KeyDiagnostics.gitChanged, src/host/scan/keyDiagnostics.ts).
  'src/core/scan/gitPrefetch.ts': 'gitPrefetch.js',
  // The probes and the window onto the parts that Keyward's own in-host tests use, loaded by activate() in Test mode
  // only (src/host/activation/testMode.ts).
  'src/host/activation/testMode.ts': 'testMode.js',
};

const repoPath = (path) => relative(process.cwd(), path).split(sep).join('/');

/** In the extension bundle: a dynamic import of an on-demand part becomes a load of its file. */
const onDemandFiles = {
  name: 'on-demand-files',
  setup(build) {
    build.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const file = ON_DEMAND[repoPath(resolve(args.resolveDir, args.path))];
      return file ? { path: `./${file}`, external: true } : undefined;
    });
  },
};

/**
 * In an on-demand part: a static import of another part loads that part's file too (a require when the part loads),
 * so that two parts that need the same code share the one file holding it, and the extension bundle need not.
 */
const otherParts = {
  name: 'other-parts',
  setup(build) {
    build.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind === 'entry-point' || args.kind === 'dynamic-import') return undefined;
      const file = ON_DEMAND[repoPath(resolve(args.resolveDir, args.path))];
      return file ? { path: `./${file}`, external: true } : undefined;
    });
  },
};

/** Where a part takes shared modules from: the extension bundle, then the parts' common file (esbuild.js, below). */
const EXTENSION = { file: './extension.js', exported: 'keywardShared' };
const COMMON = { file: './common.js', exported: 'keywardCommon' };

/**
 * In an on-demand part: every module the extension bundle already holds is taken from it (its `keywardShared`
 * export, see entryOf), not copied. A copy would weigh on the package again and, worse, be a second
 * instance: an error class checked with instanceof, or a module's state, would differ between the two. Likewise a
 * module that two parts need and the extension bundle lacks is taken from dist/common.js (its `keywardCommon`).
 * Only what neither holds is bundled into the part. `sources` pairs each file with the modules it holds; `shared`
 * collects the modules taken. With `external`, a taken module is left as an import of its path instead (for
 * usedNames).
 */
function takenFrom(sources, shared, external = false) {
  return {
    name: 'taken-from',
    setup(build) {
      build.onResolve({ filter: /^\.\/(extension|common)\.js$/ }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point' || args.namespace === 'shared') return undefined;
        const path = repoPath(resolve(args.resolveDir, args.path));
        const source = sources.find(({ holds }) => holds.has(path));
        if (!source) return undefined;
        shared.add(path);
        return external ? { path, external: true } : { path, namespace: 'shared', pluginData: source.from };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
        contents: `module.exports = require('${args.pluginData.file}').${args.pluginData.exported}[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The names a part imports from each module it takes from the extension bundle, read from esbuild's own ES module
 * output of the part (the taken modules left as imports): the extension bundle exports those names only, so that
 * esbuild still drops what nothing uses from a module a part shares (`*` when the part needs the whole module).
 */
function usedNames(output, names) {
  const imports = /\bimport\s*(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s*as\s+\w+)?\s*from\s*"(src\/[^"]+)"/g;
  for (const [statement, byDefault, list, path] of output.matchAll(imports)) {
    const taken = names.get(path) ?? new Set();
    names.set(path, taken);
    if (/\*\s*as/.test(statement)) taken.add('*');
    if (byDefault) taken.add('default');
    for (const item of (list ?? '').split(',')) {
      const name = item.trim().split(/\s+as\s+/)[0];
      if (name) taken.add(name);
    }
  }
}

/**
 * The entry of a file parts take modules from: `head` (the extension bundle's own entry), and an export `exported`
 * holding the names the parts take, by module path.
 */
function entryOf(names, { exported }, sourcefile, head = []) {
  const paths = [...names.keys()].sort();
  const binding = (path, i) =>
    names.get(path).has('*')
      ? `* as m${i}`
      : `{ ${[...names.get(path)]
          .sort()
          .map((name) => `${name} as m${i}_${name}`)
          .join(', ')} }`;
  const value = (path, i) =>
    names.get(path).has('*')
      ? `m${i}`
      : `{ ${[...names.get(path)]
          .sort()
          .map((name) => `${name}: m${i}_${name}`)
          .join(', ')} }`;
  return {
    contents: [
      ...head,
      ...paths.map((path, i) => `import ${binding(path, i)} from './${path}';`),
      `export const ${exported} = { ${paths.map((path, i) => `${JSON.stringify(path)}: ${value(path, i)}`).join(', ')} };`,
    ].join('\n'),
    resolveDir: process.cwd(),
    sourcefile,
    loader: 'ts',
  };
}

/** @type {esbuild.BuildOptions} */
const extension = {
  ...common,
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['vscode'],
  plugins: [undiciOnDemand, archiveOnDemand, onDemandFiles],
};

// undici ships llhttp twice, as base64 WebAssembly of 70 KB each: built with SIMD, and without for the machines
// whose WebAssembly lacks it (riscv64, older ppc64), which undici falls back to when the SIMD build does not load.
// Only the portable build ships: it runs everywhere, and a stream of 10,000 deltas read no slower with it
// (UNDICI_NO_WASM_SIMD=1, bench/stream.ts), since Keyward's responses are small. The SIMD build's module fails to
// load, and undici takes the portable one. That one ships as the binary it is, dist/llhttp.wasm (54 KB), which
// undici's module reads on the first request, rather than as base64 inside dist/undici.js (72 KB, and a quarter more
// in the VSIX). scripts/checkVsix.ts checks that the VSIX holds it.
const portableLlhttp = {
  name: 'portable-llhttp',
  setup(build) {
    build.onResolve({ filter: /[\\/]llhttp_simd-wasm\.js$/ }, () => ({ path: 'simd', namespace: 'llhttp' }));
    build.onResolve({ filter: /[\\/]llhttp-wasm\.js$/ }, () => ({ path: 'portable', namespace: 'llhttp' }));
    build.onLoad({ filter: /^simd$/, namespace: 'llhttp' }, () => ({
      contents: "throw new Error('Keyward ships the portable llhttp build only');",
      loader: 'js',
    }));
    build.onLoad({ filter: /^portable$/, namespace: 'llhttp' }, () => {
      writeFileSync('dist/llhttp.wasm', require('undici/lib/llhttp/llhttp-wasm.js'));
      return {
        contents:
          "module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, 'llhttp.wasm'));",
        loader: 'js',
      };
    });
  },
};

// undici reads a FormData body with fetch's body code (web/fetch/body.js, and through it fetch's helpers and WebIDL:
// 42 KB of dist/undici.js). It takes only a FormData of its own making, refusing any other before a client sees it
// (core/request.js, "body must be a FormData created by this undici package instance"), and the lean undici
// (src/core/undiciLean.cjs) exports none: that code never runs. The check that refuses keeps working, on a WebIDL
// that knows no undici FormData; the body reader, never reached, would throw. test/core/undiciLean.test.ts checks the
// refusal against undici's own.
const noFormData = {
  name: 'no-form-data',
  setup(build) {
    build.onResolve({ filter: /[\\/]web[\\/]fetch[\\/](body|formdata)(\.js)?$/ }, () => ({
      path: 'unused',
      namespace: 'form-data',
    }));
    build.onResolve({ filter: /[\\/]web[\\/]webidl$/ }, () => ({ path: 'webidl', namespace: 'form-data' }));
    build.onLoad({ filter: /^unused$/, namespace: 'form-data' }, () => ({
      contents: "module.exports = { extractBody() { throw new Error('Keyward sends no FormData'); } };",
      loader: 'js',
    }));
    build.onLoad({ filter: /^webidl$/, namespace: 'form-data' }, () => ({
      contents: 'module.exports = { webidl: { is: { FormData: () => false } } };',
      loader: 'js',
    }));
  },
};

// markdown-it's named character references are read by the webview's own HTML parser (src/webview/htmlEntities.ts),
// not from the 18 KB table of the `entities` package, which the browser already holds.
const browserEntities = {
  name: 'browser-entities',
  setup(build) {
    build.onResolve({ filter: /^entities$/ }, (args) =>
      /[\\/]markdown-it[\\/]/.test(args.importer) ? { path: resolve('src/webview/htmlEntities.ts') } : undefined,
    );
  },
};

/** @type {esbuild.BuildOptions[]} */
const bundles = [
  {
    ...common,
    entryPoints: ['src/core/undiciLean.cjs'],
    outfile: 'dist/undici.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // undici's build of the copy Node ships defines this (esbuildDetection: '1'): it leaves out the experimental Milo
    // HTTP/1 parser, two base64 WebAssembly modules (115 KB) that run only when a client asks for it by option.
    define: { esbuildDetection: 'true' },
    plugins: [portableLlhttp, noFormData],
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
    // The editor's scanner thread (src/core/scan/scanThread.ts): a program of its own, so it holds its own scanner.
    entryPoints: ['src/core/scan/scanWorker.ts'],
    outfile: 'dist/scanWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
  },
  {
    ...common,
    // The chat's stylesheet, minified like the webview's script (a quarter smaller in the VSIX).
    entryPoints: ['media/panel.css'],
    outfile: 'dist/panel.css',
    target: 'chrome120',
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    plugins: [browserEntities],
  },
  ...cliBuilds('dist/cli.js', common, version),
];

// The repository is an ES module package; the bundles are CommonJS, which is what
// the extension host's loader and a plain `node dist/cli.js` expect.
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
await writeCodicons('dist');

// The extension and its on-demand parts in three steps: what the extension bundle holds, then each part with
// those modules taken from it, then the extension bundle exporting the modules the parts take.
// A module that two parts would each bundle (one the extension bundle lacks) would be two instances of it: such a
// module is held once by dist/common.js, which both parts load and take it from. It stays out of the extension
// bundle, which activation parses (bench/bundle.ts); common.js takes what the extension bundle holds from it too.
const { metafile: extensionAlone } = await esbuild.build({
  ...extension,
  entryPoints: ['src/extension.ts'],
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const held = new Set(Object.keys(extensionAlone.inputs));
const commonHeld = new Set();
const nodePart = { ...common, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode'] };
// A part's own dynamic import of another part loads that part's file too, rather than inlining a copy of it.
const partPlugins = [undiciOnDemand, archiveOnDemand, onDemandFiles, otherParts];
const partOptions = (shared, external = false) =>
  Object.entries(ON_DEMAND).map(([entry, file]) => ({
    ...nodePart,
    entryPoints: [entry],
    outfile: `dist/${file}`,
    plugins: [
      ...partPlugins,
      takenFrom(
        [
          { holds: held, from: EXTENSION },
          { holds: commonHeld, from: COMMON },
        ],
        shared,
        external,
      ),
    ],
  }));
const commonOptions = (stdin, shared, external = false) => ({
  ...nodePart,
  stdin,
  outfile: 'dist/common.js',
  plugins: [...partPlugins, takenFrom([{ holds: held, from: EXTENSION }], shared, external)],
});
/** The modules each build bundles itself (not taken, not its generated entry). */
const ownInputs = (metafile) =>
  Object.keys(metafile.inputs).filter((input) => !input.includes(':') && !input.endsWith('-entry.ts'));
for (;;) {
  const trialCommon = entryOf(
    new Map([...commonHeld].map((path) => [path, new Set(['*'])])),
    COMMON,
    'common-entry.ts',
  );
  const trial = await Promise.all(
    [...partOptions(new Set()), commonOptions(trialCommon, new Set())].map((options) =>
      esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' }),
    ),
  );
  const owner = new Set();
  const twice = new Set();
  for (const { metafile } of trial) for (const path of ownInputs(metafile)) (owner.has(path) ? twice : owner).add(path);
  if (twice.size === 0) break;
  for (const path of twice) commonHeld.add(path);
}
const parts = partOptions(new Set());
const built = await Promise.all(parts.map((options) => esbuild.build({ ...options, metafile: true })));
// Which of the taken modules' exports each part uses: the same parts as ES modules, the taken modules left out.
const esm = { format: 'esm', minify: false, sourcemap: false, write: false, logLevel: 'silent' };
const names = new Map();
const asModules = await Promise.all(
  partOptions(new Set(), true).map((options) => esbuild.build({ ...options, ...esm })),
);
for (const { outputFiles } of asModules) usedNames(outputFiles[0].text, names);
const byHolder = (holds) => new Map([...names].filter(([path]) => holds.has(path)));
const commonBundle = commonOptions(entryOf(byHolder(commonHeld), COMMON, 'common-entry.ts'), new Set());
// What common.js itself takes from the extension bundle.
const commonAsModule = await esbuild.build({
  ...commonOptions(commonBundle.stdin, new Set(), true),
  ...esm,
});
usedNames(commonAsModule.outputFiles[0].text, names);
// Two parts that bundle the same module (one the extension bundle lacks) would each hold an instance of it.
const owner = new Map();
built.forEach(({ metafile: part }, i) => {
  for (const path of ownInputs(part)) {
    if (owner.has(path)) throw new Error(`${path} is bundled into both ${owner.get(path)} and ${parts[i].outfile}`);
    owner.set(path, parts[i].outfile);
  }
});
const extensionBundle = {
  ...extension,
  stdin: entryOf(byHolder(held), EXTENSION, 'extension-entry.ts', ["export * from './src/extension.ts';"]),
};
const all = [extensionBundle, commonBundle, ...bundles];

if (watch) {
  // A part that starts to use another of the extension's modules needs a restart of the watch.
  const contexts = await Promise.all([...all, ...parts].map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(all.map((options) => esbuild.build(options)));
}
