// A large document in the real host (issue 31): a YAML file of `data:` lines, which took minutes to scan on the
// extension host's thread, now opens with Keyward adding no stall of 50 ms to the host's event loop, and the key in it
// is still flagged. The loop is watched by a 5 ms timer in the host itself: the longest gap between its ticks that
// this thread spent working (a gap spent waiting for a core of a busy machine is no stall). VS Code itself works a
// while on the host's thread to receive a document of 110,000 lines, whoever listens: the same document opened over
// the size cap, which Keyward only names, measures that share. The best of three openings counts.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { keyward, open, write } from './editor.ts';
import { activateKeyward, waitFor } from './env.ts';

const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');

/** About 880 KB: a Secret's key in base64, then an indented `data:` on every line (under the default size cap). */
function adversarialYaml(key: string): string {
  return `kind: Secret\ndata:\n  OPENROUTER_API_KEY: ${Buffer.from(key).toString('base64')}\n${'  data:\n'.repeat(110_000)}`;
}

/** The longest stall of this thread's event loop while `work` runs, in milliseconds of its CPU time. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let lastCpu = process.threadCpuUsage();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.threadCpuUsage(lastCpu);
    longest = Math.max(longest, Math.min(now - last, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.threadCpuUsage();
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/**
 * Where this thread spent its time while `work` ran (a CPU profile's self time, the busiest functions first): said
 * when the stall test fails, so a failure names its cause rather than only its size.
 */
async function busiest(work: () => Promise<void>): Promise<string> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
  try {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 500 });
    await post('Profiler.start');
    await work();
    const { profile } = (await post('Profiler.stop')) as {
      profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] };
    };
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const frame = nodes.get(id)!.callFrame;
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    return [...self]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([name, ms]) => `${ms.toFixed(1)} ms ${name}`)
      .join('; ');
  } finally {
    session.disconnect();
  }
}

suite('a large document in the editor', () => {
  suiteSetup(async () => {
    await activateKeyward();
  });

  test('the adversarial YAML: Keyward adds no 50 ms stall to the host, a command answers meanwhile, the key is flagged', async () => {
    const settings = vscode.workspace.getConfiguration('keyward');
    const control = write('adversarial-control.yaml', adversarialYaml(routerKey()));
    await settings.update('scan.maxFileSizeKb', 100, vscode.ConfigurationTarget.Global);
    const vscodeShare = await longestStall(async () => {
      await open('adversarial-control.yaml');
      await waitFor('the control named, not scanned', () =>
        keyward(control).some((d) => d.code === 'not-scanned') ? true : undefined,
      );
    });
    await settings.update('scan.maxFileSizeKb', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Best of three openings, each of a new file: a stall Keyward causes comes back every time, while a major garbage
    // collection or a busy machine's burst of the host's own work (seen once in CI at 83 ms) does not.
    const attempts: string[] = [];
    const written = [control];
    let uri = control;
    let stall = Infinity;
    for (let attempt = 1; attempt <= 3 && !(stall < vscodeShare + 50); attempt++) {
      if (attempt > 1) await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      const name = `adversarial-secret-${attempt}.yaml`;
      uri = write(name, adversarialYaml(routerKey()));
      written.push(uri);
      let answered = 0;
      const seen = await longestStall(async () => {
        await open(name);
        // While the scan runs: the host answers another request at once.
        const asked = performance.now();
        await vscode.commands.getCommands(true);
        answered = performance.now() - asked;
        await waitFor('the base64 key flagged', () =>
          keyward(uri).some((d) => d.code === 'encoded-key') ? true : undefined,
        );
      });
      stall = Math.min(stall, seen);
      attempts.push(`${seen.toFixed(1)} ms (a command answered in ${answered.toFixed(1)} ms)`);
    }
    console.log(
      `longest stall of the host's event loop opening the YAML: ${attempts.join(', ')}; ` +
        `${vscodeShare.toFixed(1)} ms opening it over the size cap`,
    );
    let profile = '';
    if (!(stall < vscodeShare + 50)) {
      // A fourth opening, profiled (the profiler's own cost kept out of the three measured).
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      uri = write('adversarial-secret-profiled.yaml', adversarialYaml(routerKey()));
      written.push(uri);
      profile = await busiest(async () => {
        await open('adversarial-secret-profiled.yaml');
        await waitFor('the base64 key flagged', () =>
          keyward(uri).some((d) => d.code === 'encoded-key') ? true : undefined,
        );
      });
      console.log(`the host's busiest functions opening the YAML: ${profile}`);
    }
    assert.ok(
      stall < vscodeShare + 50,
      `the host's event loop stalled ${attempts.join(', ')} (${vscodeShare} ms without a scan); busiest: ${profile}`,
    );
    const [diagnostic] = keyward(uri);
    assert.equal(diagnostic!.range.start.line, 2);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    for (const file of written) await vscode.workspace.fs.delete(file);
  });
});
