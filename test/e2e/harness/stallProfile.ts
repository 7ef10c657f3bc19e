// Evidence for a stalled in-host run. A stall showed the window's renderer busy and the extension host idle, and
// no picture says why: this records where the renderer spends its time (a ten-second CPU profile, summed by
// function) and which processes are busy, so that the next stall names its cause.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from './playwright.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const nameOf = (frame: ProfileNode['callFrame']) =>
  `${frame.functionName || '(anonymous)'}  ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;

/** Self time per function, largest first, as "ms  function  url:line" lines. */
export function selfTimes(profile: Profile, top = 40): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) return;
    const name = nameOf(frame);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${name}`);
}

/** The heaviest call stacks (leaf first, eight callers up), so that a busy native function names who calls it. */
export function heaviestStacks(profile: Profile, top = 8): string[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<number, number>();
  profile.samples.forEach((id, i) => totals.set(id, (totals.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  return [...totals]
    .filter(([id]) => !/^\((program|idle|garbage collector)\)$/.test(byNode.get(id)?.callFrame.functionName ?? ''))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .flatMap(([id, ms]) => {
      const chain: string[] = [];
      for (let at: number | undefined = id; at !== undefined && chain.length < 9; at = parent.get(at))
        chain.push(nameOf(byNode.get(at)!.callFrame));
      return [`${ms.toFixed(0).padStart(7)} ms`, ...chain.map((name) => `           ${name}`)];
    });
}

function busiestProcesses(): string {
  try {
    return execFileSync('ps', ['-eo', 'pid,pcpu,rss,etime,args', '--sort=-pcpu'], { encoding: 'utf8' })
      .split('\n')
      .slice(0, 15)
      .map((line) => line.slice(0, 220))
      .join('\n');
  } catch (error) {
    return `ps failed: ${(error as Error).message}`;
  }
}

/** Writes the profile, the page's size and the busiest processes to `file`; never throws. */
export async function recordStall(context: BrowserContext, page: Page, file: string, quietMs: number): Promise<void> {
  const lines = [`no in-host log line for ${Math.round(quietMs / 1000)} s`, '', busiestProcesses(), ''];
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const { profile } = await cdp.send<{ profile: Profile }>('Profiler.stop');
    lines.push(
      'renderer self time over 10 s:',
      ...selfTimes(profile),
      '',
      'heaviest stacks:',
      ...heaviestStacks(profile),
    );
    const { result } = await cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', {
      expression:
        'JSON.stringify({ elements: document.querySelectorAll("*").length, iframes: document.querySelectorAll("iframe").length, notifications: [...document.querySelectorAll(".notification-toast")].map((n) => n.textContent).slice(0, 5), tabs: [...document.querySelectorAll(".tab")].map((t) => t.getAttribute("aria-label")) })',
      returnByValue: true,
      timeout: 5000,
    });
    lines.push('', `page: ${String(result.value)}`);
    await cdp.detach();
  } catch (error) {
    lines.push(`profile failed: ${(error as Error).message}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
}
