// Runs the mocha suite inside the real extension host: code-server's smoke-test
// driver loads the extension from its folder and the compiled tests, and
// reports the log and the exit code back to the page.
import { join } from 'node:path';
import { format } from 'node:util';
import type { BrowserContext } from './playwright.ts';
import { recordStall } from './stallProfile.ts';

export interface InHostResult {
  exitCode: number;
  log: string[];
}

export async function runInHostSuite(
  context: BrowserContext,
  options: {
    url: string;
    port: number;
    extensionFolder: string;
    testsIndex: string;
    workspace: string;
    timeoutMs: number;
    /** Where a picture of the window is saved every minute, so that a hang leaves evidence of what it showed. */
    shotsDir?: string;
  },
): Promise<InHostResult> {
  const page = await context.newPage();
  const log: string[] = [];
  let lastLine = Date.now();
  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    finish = resolve;
  });
  await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
    const line = format(...(Array.isArray(args) ? args : [args]));
    log.push(line);
    lastLine = Date.now();
    process.stdout.write(`  [host] ${line}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
  const authority = `127.0.0.1:${options.port}`;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${options.extensionFolder}`],
    ['extensionTestsPath', `vscode-remote://${authority}${options.testsIndex}`],
  ];
  await page.goto(
    `${options.url}/?folder=${encodeURIComponent(options.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    { timeout: 60_000 },
  );
  let shots = 0;
  const shoot = () =>
    options.shotsDir
      ? page
          .screenshot({ path: join(options.shotsDir, `in-host-${String(++shots).padStart(2, '0')}.png`) })
          .catch(() => undefined)
      : Promise.resolve(undefined);
  // No test logs nothing for two minutes (each has its own shorter timeout): a quiet log is a stall, and its
  // evidence is recorded once per quiet spell, numbered like the pictures.
  let stalls = 0;
  let recording = false;
  const pictures = setInterval(() => {
    void shoot();
    const quiet = Date.now() - lastLine;
    if (!options.shotsDir || recording || quiet < 120_000) return;
    recording = true;
    const file = join(options.shotsDir, `in-host-stall-${++stalls}.txt`);
    process.stdout.write(`  [host] (no log line for ${Math.round(quiet / 1000)} s: recording ${file})\n`);
    void recordStall(context, page, file, quiet).finally(() => {
      lastLine = Date.now();
      recording = false;
    });
  }, 60_000);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      log.push(`in-host suite timed out after ${options.timeoutMs} ms`);
      resolve(124);
    }, options.timeoutMs);
  });
  const exitCode = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  clearInterval(pictures);
  if (exitCode === 124) await shoot();
  await page.close().catch(() => undefined);
  return { exitCode, log };
}
