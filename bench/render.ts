// The panel under a fast stream: 5,000 deltas posted to the real webview bundle
// in headless Chromium; deltas per second, and the longest main-thread task.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, ensureToolchain } from '../test/e2e/harness/install.ts';
import { CHROMIUM_ARGS, loadChromium } from '../test/e2e/harness/playwright.ts';
import { QUICK } from './quick.ts';
import { median, verdict } from './stats.ts';

const DELTAS = 5000;
const RUNS = 5;

export async function benchRender(): Promise<string[]> {
  // Only sync child processes (scanner) or a browser closed in finally (render): nothing of theirs outlives them.
  if (QUICK) return ['skipped in quick mode'];
  execFileSync('node', ['esbuild.js', '--production'], { stdio: 'ignore' });
  const tools = ensureToolchain();
  const dir = mkdtempSync(join(tmpdir(), 'keyward-render-'));
  const html = join(dir, 'panel.html');
  const { buildPanelHtml } = await import('../src/host/chat/panelHtml.ts');
  const page = buildPanelHtml({
    cspSource: 'file:',
    nonce: 'bench',
    scriptUri: pathToFileURL(resolve('dist/webview.js')).href,
    styleUri: pathToFileURL(resolve('media/panel.css')).href,
    lang: 'en',
    strings: {},
  })
    .replace('<meta http-equiv="Content-Security-Policy"', '<meta name="csp-off-for-file-bench"')
    .replace(
      '<script nonce',
      `<script>window.sent=[];window.acquireVsCodeApi=()=>({postMessage:(m)=>window.sent.push(m),getState:()=>undefined,setState:()=>undefined});</script><script nonce`,
    );
  writeFileSync(html, page);
  const chromium = loadChromium(tools.playwrightCore);
  const browser = await chromium.launchPersistentContext(mkdtempSync(join(dir, 'profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, '--allow-file-access-from-files'],
  });
  try {
    const tab = browser.pages()[0] ?? (await browser.newPage());
    // Several runs, each on a fresh page: one long task can be another process taking the core
    // (two cores, shared), so every run's figure is printed, with the machine's load, not one number.
    const results = [];
    for (let run = 0; run < RUNS; run++) {
      await tab.goto(pathToFileURL(html).href);
      results.push(
        await tab.evaluate(async () => {
          const w = window as unknown as { longest: number; from: number };
          w.longest = 0;
          // Only tasks of the stream count, not loading the page and its script.
          w.from = Number.POSITIVE_INFINITY;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries())
              if (entry.startTime >= w.from) w.longest = Math.max(w.longest, entry.duration);
          }).observe({ type: 'longtask', buffered: true });
          const post = (data: unknown) => window.postMessage(data, '*');
          const turn = (id: string, role: string, status: string) => ({
            id,
            role,
            text: '',
            service: 'router',
            model: 'bench/model',
            status,
          });
          post({
            type: 'panel/state',
            state: {
              service: 'router',
              models: { router: [], direct: [] },
              canListModels: { router: true, direct: true },
              selectedModel: { router: 'bench/model', direct: 'x' },
              hasKey: { router: true, direct: true },
              turns: [],
              strings: {},
            },
          });
          post({
            type: 'chat/started',
            requestId: 'bench',
            user: { ...turn('u', 'user', 'done'), text: 'go' },
            assistant: turn('a', 'assistant', 'streaming'),
          });
          // A person opens the panel and types before an answer streams: a second of that, in which the panel
          // warms its grammars while idle, as it does for them.
          await new Promise((r) => setTimeout(r, 1000));
          // Fenced code among the prose: the finished blocks are highlighted as they settle.
          const words = [
            'stream ',
            'of ',
            '`code` ',
            'and ',
            '**bold** ',
            'text ',
            '\n\n',
            '- item\n',
            '\n```ts\nconst answer: number = 42; // why\nexport function f(a: string) { return a.length; }\n```\n\n',
          ];
          const start = performance.now();
          w.from = start;
          let text = '';
          for (let i = 0; i < 5000; i++) {
            const delta = words[i % words.length]!;
            text += delta;
            post({ type: 'chat/chunk', requestId: 'bench', text: delta });
            // A message at a time, as a socket delivers them, yielding now and then.
            if (i % 25 === 24) await new Promise((r) => setTimeout(r, 0));
          }
          post({ type: 'chat/done', requestId: 'bench', turn: { ...turn('a', 'assistant', 'done'), text } });
          await new Promise<void>((resolve) => {
            const check = () =>
              document.querySelector('.turn.assistant.done') ? resolve() : requestAnimationFrame(check);
            check();
          });
          const elapsed = performance.now() - start;
          await new Promise((r) => setTimeout(r, 200));
          return {
            elapsed,
            longest: w.longest,
            length: document.querySelector('.turn.assistant.done .answer')!.textContent!.length,
          };
        }),
      );
    }
    const elapsed = median(results.map((r) => r.elapsed));
    const longest = median(results.map((r) => r.longest));
    const shown = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${ms.toFixed(0)} ms`);
    return [
      `${DELTAS} deltas rendered, median of ${RUNS} fresh pages: ${elapsed.toFixed(0)} ms = ${Math.round(DELTAS / (elapsed / 1000))} deltas/s (${results[0]!.length} characters shown)`,
      `longest main-thread task, median of ${RUNS}: ${longest === 0 ? 'none over 50 ms (the long-task threshold)' : `${longest.toFixed(0)} ms`}  target: no task over 50 ms  ${verdict(longest <= 50)}`,
      `  each run: ${results.map((r) => shown(r.longest)).join(', ')}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    ];
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
    execFileSync('node', ['esbuild.js'], { stdio: 'ignore' });
  }
}
