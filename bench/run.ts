// `npm run bench`: prints the figures each issue asks for. A script, not a test:
// it reports medians and ratios against a baseline measured in the same run.
import { benchBundle } from './bundle.ts';
import { benchStream } from './stream.ts';
import { benchScanner } from './scanner.ts';
import { benchRender } from './render.ts';

const sections: [string, () => string[] | Promise<string[]>][] = [
  ['Bundle budget', benchBundle],
  ['Streaming client', benchStream],
  ['Key scanner', benchScanner],
  ['Panel rendering', benchRender],
];

const only = process.argv[2];
for (const [name, run] of sections) {
  if (only && !name.toLowerCase().includes(only.toLowerCase())) continue;
  process.stdout.write(`\n== ${name}\n`);
  for (const line of await run()) process.stdout.write(`  ${line}\n`);
}
