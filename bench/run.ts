// `npm run bench`: prints the figures each issue asks for. A script, not a test:
// it reports medians and ratios against a baseline measured in the same run.
import { benchBundle } from './bundle.ts';
import { benchStream } from './stream.ts';
import { benchScanner } from './scanner.ts';
import { benchRender } from './render.ts';
import { execFileSync } from 'node:child_process';

const sections: [string, () => string[] | Promise<string[]>][] = [
  ['Bundle budget', benchBundle],
  ['Streaming client', benchStream],
  ['Key scanner', benchScanner],
  ['Panel rendering', benchRender],
];

const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
process.stdout.write(`machine: ${load()}\n`);
const only = process.argv[2];
for (const [name, run] of sections) {
  if (only && !name.toLowerCase().includes(only.toLowerCase())) continue;
  process.stdout.write(`\n== ${name}\n`);
  for (const line of await run()) process.stdout.write(`  ${line}\n`);
}
process.stdout.write(`\nmachine: ${load()}\n`);

// Every section closes what it opened, so the process ends by itself here. Should
// something stay open, name it (a bench that hangs after its last figure says nothing).
const watchdog = setTimeout(() => {
  // This watchdog is one of the timers listed: it is unref'd, so it never kept the process alive itself.
  const open = process.getActiveResourcesInfo();
  process.stderr.write(`bench: still open 10 s after the last figure, so exiting: ${open.join(', ')}\n`);
  process.exit(0);
}, 10_000);
watchdog.unref();
