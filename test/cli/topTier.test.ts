// The CLI turns V8's top tier off for the first quarter second of a scan of many files (src/cli/topTier.ts).
// Checked in a fresh process, as the CLI runs, with V8's own trace of what it optimises: a hot loop while the
// tier is off gets no TurboFan code, one after it is back on does. If a V8 stops reading the flag at run time,
// this fails, and the policy is to be measured again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { json, scanCli, tempDir } from './gitFixtures.ts';

const MODULE = pathToFileURL(join(process.cwd(), 'src/cli/topTier.ts')).href;

function run(body: string): { out: string; trace: string } {
  const script = join(tempDir('keyward-tier-'), 'tier.ts');
  writeFileSync(
    script,
    `import { deferTopTier, topTierDeferred, topTierIfLong } from ${JSON.stringify(MODULE)};
const builtins = () => process.moduleLoadList.filter((m) => m === 'NativeModule v8');
function spin(ms: number): void { const until = Date.now() + ms; while (Date.now() < until); }
const age = () => process.uptime() * 1000;
${body}`,
  );
  const child = spawnSync(process.execPath, ['--trace-opt', script], { encoding: 'utf8', timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  const lines = child.stdout.split('\n');
  return {
    out: lines.filter((l) => l.startsWith('>')).join('\n'),
    trace: lines.filter((l) => l.startsWith('[completed')).join('\n'),
  };
}

describe('the top tier, deferred', () => {
  it('is off for a scan of many files until the process has run a quarter second, then on again', () => {
    const { out, trace } = run(`
deferTopTier(10_000);
console.log('> deferred ' + topTierDeferred());
function early(n: number): number { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
let sum = 0;
for (let i = 0; i < 3000; i++) sum += early(10_000);
spin(Math.max(0, 270 - age()));
topTierIfLong();
console.log('> deferred ' + topTierDeferred());
function late(n: number): number { let s = 0; for (let i = 0; i < n; i++) s += i % 5; return s; }
for (let i = 0; i < 3000; i++) sum += late(10_000);
console.log('> ' + (sum > 0));
`);
    expect(out).toBe('> deferred true\n> deferred false\n> true');
    expect(trace).toMatch(/<JSFunction late .*TURBOFAN/);
    expect(trace).not.toMatch(/<JSFunction early .*TURBOFAN/);
  });

  it('is left alone for a scan of few files, without loading node:v8', () => {
    const { out } = run(`
deferTopTier(100);
console.log('> deferred ' + topTierDeferred() + ' ' + builtins().length);
`);
    expect(out).toBe('> deferred false 0');
  });

  it('is left alone in a process that has already run a quarter second', () => {
    const { out } = run(`
spin(Math.max(0, 270 - age()));
deferTopTier(10_000);
console.log('> deferred ' + topTierDeferred());
`);
    expect(out).toBe('> deferred false');
  });

  it('is turned off while a large tree is still being listed, not only once its scan begins', () => {
    // TurboFan compiled the walk's loop and Node's directory reading before the scan began (5 ms of CPU in the
    // bench's tree). Seen from outside: whether node:v8 is loaded at each folder the CLI reads.
    const dir = tempDir('keyward-tier-tree-');
    for (let folder = 0; folder < 20; folder++) {
      mkdirSync(join(dir, `f${folder}`));
      for (let file = 0; file < 20; file++) writeFileSync(join(dir, `f${folder}`, `${file}.txt`), 'x\n');
    }
    const tools = tempDir('keyward-tier-hook-');
    writeFileSync(
      join(tools, 'hook.cjs'),
      `const fs = require('fs');
const seen = [];
const readdir = fs.readdirSync;
fs.readdirSync = function (...args) {
  seen.push({ loaded: process.moduleLoadList.includes('NativeModule v8'), ms: process.uptime() * 1000 });
  return readdir.apply(this, args);
};
process.on('exit', () => fs.writeFileSync(process.env.KEYWARD_TEST_SEEN, JSON.stringify(seen)));
`,
    );
    const record = join(tools, 'seen.json');
    const run = scanCli(dir, ['--no-git', '--format', 'json', '.'], {
      NODE_OPTIONS: `--require ${join(tools, 'hook.cjs')}`,
      KEYWARD_TEST_SEEN: record,
    });
    expect(json(run).complete).toBe(true);
    const seen = JSON.parse(readFileSync(record, 'utf8')) as { loaded: boolean; ms: number }[];
    // The root and 20 folders of 20 files: the 256th file is listed in the 13th folder; every folder read after
    // it is read with the tier off, unless the process was already a quarter second old then (a machine so busy
    // that the CLI took that long to start), when the tier is rightly left alone.
    expect(seen.length).toBe(21);
    expect(seen.slice(0, 14).map((s) => s.loaded)).toEqual(Array(14).fill(false));
    for (const folder of seen.slice(14)) if (seen[14]!.ms < 250) expect(folder.loaded).toBe(true);
  });
});
