// `npm run bench`: prints the figures each issue asks for. A script, not a test:
// it reports medians and ratios against a baseline measured in the same run.
// Each section runs in its own child process: one section's heap, JIT state or
// leftovers cannot bill the next (the panel figure was worse after the others in
// one process), and a child that does not end by itself shows as a hang here
// rather than being hidden by a watchdog. KEYWARD_BENCH_QUICK=1 makes every
// section tiny, for the test that checks the bench ends by itself.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchBundle } from './bundle.ts';
import { benchStream } from './stream.ts';
import { benchScanner } from './scanner.ts';
import { benchScanCores } from './scanCores.ts';
import { benchAdversarial } from './adversarial.ts';
import { benchRender } from './render.ts';
import { benchProviderFirstToken } from './providerFirstToken.ts';
import { benchInlineEdit } from './inlineEdit.ts';

const sections: [string, () => string[] | Promise<string[]>][] = [
  ['Bundle budget', benchBundle],
  ['Streaming client', benchStream],
  ['Key scanner', benchScanner],
  ['Scanner on every core', benchScanCores],
  ['Adversarial input', benchAdversarial],
  ['Panel rendering', benchRender],
  ['Provider first token', benchProviderFirstToken],
  ['Inline edit', benchInlineEdit],
];

const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

const child = process.argv[2] === '--section' ? process.argv[3] : undefined;
if (child !== undefined) {
  const run = sections.find(([name]) => name === child)?.[1];
  if (!run) throw new Error(`no bench section named ${child}`);
  for (const line of await run()) process.stdout.write(`  ${line}\n`);
} else {
  process.stdout.write(`machine: ${load()}\n`);
  const only = process.argv[2];
  for (const [name] of sections) {
    if (only && !name.toLowerCase().includes(only.toLowerCase())) continue;
    process.stdout.write(`\n== ${name}\n`);
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [fileURLToPath(import.meta.url), '--section', name], { stdio: 'inherit' }).on(
        'exit',
        resolve,
      ),
    );
    if (code !== 0) {
      process.stdout.write(`  (section failed, exit ${code})\n`);
      process.exitCode = 1;
    }
  }
  process.stdout.write(`\nmachine: ${load()}\n`);
}
