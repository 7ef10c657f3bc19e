// A large document in the real host (issue 31): a YAML file of `data:` lines, which took minutes to scan on the
// extension host's thread, now opens with that thread's event loop never held 50 ms by Keyward, and the key in it is
// still flagged. The loop is watched by a 5 ms timer in the host itself: the longest gap this thread spent working.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { keyward, open, write } from './editor.ts';
import { activateKeyward, waitFor } from './env.ts';

const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');

/** About 880 KB: a Secret's key in base64, then an indented `data:` on every line (under the default size cap). */
export function adversarialYaml(key: string): string {
  return `kind: Secret\ndata:\n  OPENROUTER_API_KEY: ${Buffer.from(key).toString('base64')}\n${'  data:\n'.repeat(110_000)}`;
}

suite('a large document in the editor', () => {
  suiteSetup(async () => {
    await activateKeyward();
  });

  test('the adversarial YAML: the host never stalls 50 ms, a command answers meanwhile, the key is flagged', async () => {
    const uri = write('adversarial-secret.yaml', adversarialYaml(routerKey()));
    // Each tick of a 5 ms timer: the wall time since the last and this thread's CPU time in it. A gap the thread spent
    // working is a stall of its event loop; a gap it spent waiting for a core of a busy machine is not.
    let last = performance.now();
    let lastCpu = process.threadCpuUsage();
    let longest = 0;
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.threadCpuUsage(lastCpu);
      const gap = now - last;
      longestGap = Math.max(longestGap, gap);
      longest = Math.max(longest, Math.min(gap, (cpu.user + cpu.system) / 1000));
      last = now;
      lastCpu = process.threadCpuUsage();
    }, 5);
    try {
      await open('adversarial-secret.yaml');
      // While the scan runs: another command of the host answers at once.
      const asked = performance.now();
      await vscode.commands.getCommands(true);
      const answered = performance.now() - asked;
      await waitFor('the base64 key flagged', () =>
        keyward(uri).some((d) => d.code === 'encoded-key') ? true : undefined,
      );
      console.log(
        `longest stall of the host's event loop: ${longest.toFixed(1)} ms; a command answered in ${answered.toFixed(1)} ms`,
      );
    } finally {
      clearInterval(timer);
    }
    assert.ok(longest < 50, `the extension host's event loop stalled ${longest.toFixed(1)} ms`);
    const [diagnostic] = keyward(uri);
    assert.equal(diagnostic!.range.start.line, 2);
  });
});
