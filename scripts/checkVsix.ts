// Fails when the VSIX would ship anything but what runs: no sources, tests,
// maps or .env files. Lists the contents the way vsce sees them. Then holds the
// packaged keyward.vsix to its size budgets.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { SIZE_BUDGET_KB } from './sizeBudgets.ts';

/** What `npm run package` writes. */
const VSIX = 'keyward.vsix';
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const ALLOWED = [
  /^package\.json$/,
  /^package\.nls(\.[a-z-]+)?\.json$/,
  // Translations of the runtime strings (not the pseudo-locale).
  /^l10n\/bundle\.l10n\.(?!qps-ploc\.)[a-z-]+\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  // The files the extension loads on demand: archive.js (the unpackers) and archiveScan.js (the archive walker) on
  // the first archive a workspace scan meets; history.js and commands.js (which holds the hook installer) on their commands' first
  // run; chatSession.js when a chat first opens; wireClients.js when the first service client is made; lmRequests.js
  // on the language model provider's first request; streamScan.js with the history scan; sourceMap.js on the first
  // workspace scan or source map open in the editor; common.js (what two of those share) with the first of them that
  // needs it; scanWorker.js (the scanner thread) on the first large document opened; teamRules.js on the first
  // workspace root holding a .keyward.toml; testMode.js when VS Code runs Keyward's own tests; keyHover.js on the first
  // hover over a flagged key; scanThread.js (which starts scanWorker.js) with the first large document; gitPrefetch.js
  // the first time git's view changes with several documents open.
  /^dist\/(extension|webview|undici|archive|history|commands|chatSession|wireClients|lmRequests|archiveScan|streamScan|sourceMap|common|scanWorker|teamRules|testMode|keyHover|scanThread|gitPrefetch)\.js$/,
  // undici's HTTP/1 parser (llhttp's portable WebAssembly), which dist/undici.js reads on the first request.
  /^dist\/llhttp\.wasm$/,
  /^dist\/package\.json$/,
  /^dist\/codicon\.(css|woff2)$/,
  // The chat's stylesheet, built from media/panel.css.
  /^dist\/panel\.css$/,
  /^media\/[\w./-]+\.(css|svg|png|ttf|woff2?)$/,
  // The walkthrough's pages.
  /^media\/walkthrough\/[\w.-]+\.md$/,
];

const listing = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { encoding: 'utf8' });
const files = listing
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);
const unexpected = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
process.stdout.write(`VSIX contents (${files.length} files):\n${files.map((f) => `  ${f}`).join('\n')}\n`);
if (unexpected.length > 0) {
  process.stderr.write(
    `These files must not ship in the VSIX:\n${unexpected.map((f) => `  ${f}`).join('\n')}\nFix .vscodeignore.\n`,
  );
  process.exit(1);
}
if (!files.includes('dist/extension.js')) {
  process.stderr.write('dist/extension.js is missing from the VSIX: build before packaging.\n');
  process.exit(1);
}
// Every file the bundle loads on demand, and every file those load or read beside them (the scanner thread's script,
// undici's parser), ships: a part left out fails only when used.
// (A name no build wrote is text inside a library, such as undici's own module names in a development build.)
const loads = new Set<string>();
const pending = ['dist/extension.js'];
for (let file = pending.pop(); file; file = pending.pop())
  for (const [, script, beside] of readFileSync(file, 'utf8').matchAll(
    /(?:(?:import|require)\(["']\.\/([\w-]+\.js)["']\)|__dirname,\s*["']([\w-]+\.\w+)["'])/g,
  )) {
    const path = `dist/${script ?? beside}`;
    if (loads.has(path) || !existsSync(path)) continue;
    loads.add(path);
    if (path.endsWith('.js')) pending.push(path);
  }
const missing = [...loads].filter((path) => !files.includes(path));
if (missing.length > 0) {
  process.stderr.write(`The bundle loads files the VSIX lacks: ${missing.join(', ')}. Fix .vscodeignore.\n`);
  process.exit(1);
}
// The package keeps to its size budgets (scripts/sizeBudgets.ts), read from the VSIX `npm run package` wrote: its own
// size, and the extension bundle inside it (the production build, which activation parses).
if (!existsSync(VSIX)) {
  process.stderr.write(`${VSIX} is missing: run npm run package first, so its size can be checked.\n`);
  process.exit(1);
}
const vsix = readFileSync(VSIX);
const bundle = unzipSync(vsix, { filter: (entry) => entry.name === 'extension/dist/extension.js' })[
  'extension/dist/extension.js'
];
const over = [
  ...(vsix.byteLength > SIZE_BUDGET_KB.vsix * 1024
    ? [`${VSIX} is ${kb(vsix.byteLength)}, over its ${SIZE_BUDGET_KB.vsix} KB`]
    : []),
  ...(!bundle || bundle.byteLength > SIZE_BUDGET_KB.bundle * 1024
    ? [`its dist/extension.js is ${bundle ? kb(bundle.byteLength) : 'missing'}, over its ${SIZE_BUDGET_KB.bundle} KB`]
    : []),
];
if (over.length > 0) {
  process.stderr.write(`${over.join('; ')} (scripts/sizeBudgets.ts; npm run bench -- "Bundle budget").\n`);
  process.exit(1);
}
process.stdout.write(
  `${VSIX} ${kb(vsix.byteLength)} (budget ${SIZE_BUDGET_KB.vsix} KB), dist/extension.js ${kb(bundle?.byteLength ?? 0)} (budget ${SIZE_BUDGET_KB.bundle} KB)\n`,
);
