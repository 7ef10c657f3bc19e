// Bundle budget: production bundle size, VSIX size, and the time to require the
// bundle and run activate() with a fake context, against a trivial extension
// loaded the same way in the same process as the baseline.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFakeVscode, fakeExtensionContext } from '../test/host/fakeVscode.ts';
import { loadExtensionBundle } from '../test/host/loadBundle.ts';
import { SIZE_BUDGET_KB } from '../scripts/sizeBudgets.ts';
import { QUICK } from './quick.ts';
import { formatKb, formatMs, median, verdict } from './stats.ts';

// The size budgets are scripts/sizeBudgets.ts's, which check-vsix holds the package to as well.
const TARGET = { bundleKb: SIZE_BUDGET_KB.bundle, vsixKb: SIZE_BUDGET_KB.vsix, activationMs: 20 };

function timeActivation(bundle: string, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { api } = createFakeVscode();
    const context = fakeExtensionContext();
    const start = performance.now();
    loadExtensionBundle(api, bundle).activate(context);
    times.push(performance.now() - start);
    context.dispose();
  }
  return times;
}

export function benchBundle(): string[] {
  // Quick: the activations alone (they are what left timers open), on the bundle already built.
  if (QUICK)
    return [`activate (quick mode, figure meaningless): ${formatMs(median(timeActivation('dist/extension.js', 3)))}`];
  execFileSync('npm', ['run', '-s', 'package'], { stdio: 'ignore' });
  const bundleBytes = statSync('dist/extension.js').size;
  // Loaded on demand, not at activation: the HTTP stack and its parser on the first request, the unpackers on the
  // first archive, the history scan and the other commands' handlers (the pre-commit hook installer among them) on
  // their first run, the chat session when a chat first opens, the wire clients when the first client is made, the
  // language model provider's request handling on its first request, the archive walker on the first archive, the
  // windowed scan with the history scan, the source-map reader with a workspace scan, what two of those share
  // (common.js) with the first of them that needs it, the scanner thread (and its driver, scanThread.js) with the first large
  // document, a team's rules
  // with the first .keyward.toml, the test API when VS Code runs Keyward's own tests, the hover's text on the first hover over a key.
  const onDemand = [
    'dist/undici.js',
    'dist/llhttp.wasm',
    'dist/archive.js',
    'dist/history.js',
    'dist/commands.js',
    'dist/chatSession.js',
    'dist/wireClients.js',
    'dist/lmRequests.js',
    'dist/archiveScan.js',
    'dist/streamScan.js',
    'dist/sourceMap.js',
    'dist/common.js',
    'dist/scanWorker.js',
    'dist/teamRules.js',
    'dist/testMode.js',
    'dist/keyHover.js',
    'dist/scanThread.js',
    'dist/gitPrefetch.js',
  ].map((file) => `${file} ${formatKb(statSync(file).size)}`);
  const vsixBytes = statSync('keyward.vsix').size;

  const dir = mkdtempSync(join(tmpdir(), 'keyward-bench-'));
  const baseline = join(dir, 'baseline.js');
  writeFileSync(
    baseline,
    "const vscode = require('vscode');\nexports.activate = (c) => { c.subscriptions.push(vscode.commands.registerCommand('x.y', () => 0)); };\nexports.deactivate = () => {};\n",
  );
  timeActivation('dist/extension.js', 5);
  const runs = 41;
  const ours = median(timeActivation('dist/extension.js', runs));
  const floor = median(timeActivation(baseline, runs));
  rmSync(dir, { recursive: true, force: true });
  execFileSync('node', ['esbuild.js'], { stdio: 'ignore' });

  return [
    `bundle   dist/extension.js (production) ${formatKb(bundleBytes)}  target <= ${TARGET.bundleKb} KB  ${verdict(bundleBytes <= TARGET.bundleKb * 1024)}`,
    `on demand (not in the budget) ${onDemand.join(', ')}`,
    `vsix     keyward.vsix ${formatKb(vsixBytes)}  target <= ${TARGET.vsixKb} KB  ${verdict(vsixBytes <= TARGET.vsixKb * 1024)}`,
    `activate require + activate() median of ${runs}: ${formatMs(ours)} (trivial extension, same way: ${formatMs(floor)}, ratio ${(ours / floor).toFixed(2)})  target <= ${TARGET.activationMs} ms  ${verdict(ours <= TARGET.activationMs)}`,
  ];
}
