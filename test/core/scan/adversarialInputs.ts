// Inputs built to make each detector of the scanner do the most work per byte (issue 31): overlapping anchors,
// repeated prefixes, long runs of almost-matching text, many quotes and plus signs, runs of spaces after a comment
// opener, many disable comments, long lines. Each holds a key (generated, never committed) that must still be found.
// The linearity test (adversarial.test.ts) and the bench's "Adversarial input" lines share them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type IgnoreRules, parseIgnoreFile, suppressionFor } from '../../../src/core/scan/ignoreFile.ts';
import { readBaseline } from '../../../src/core/scan/baseline.ts';
import { type ShippedPart, scanShippedText } from '../../../src/core/scan/sourceMap.ts';
import { type Finding, optionsFor, scanText } from '../../../src/core/scan/scanner.ts';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

/** `unit` repeated to about `bytes` characters, whole units only. */
export function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.round(bytes / unit.length)));
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

export interface Adversary<R> {
  /** The detector, as the bench names it. */
  name: string;
  /** What the input does to it. */
  shape: string;
  /** The input of about `bytes` bytes, and a run of the detector over it. */
  build(bytes: number): { input: string; run: () => R };
}

/** The prefix scan: runs of every prefix, too long or too short to be keys, on long lines; one key at the end. */
export function prefixes(key = routerKey()): Adversary<Finding[]> {
  return {
    name: 'prefixes',
    shape: 'runs of sk- xai- AIza gsk_ tgp_v1_ hf_, near-miss tokens, long lines',
    build(bytes) {
      const part = bytes / 6;
      const input = [
        fill('sk-', part),
        fill('xai-pplx-AIza', part),
        fill('gsk_hf_r8_fw_tgp_v1_', part),
        fill('sk-or-v1-abc ', part),
        fill(`"sk-${'a'.repeat(40)}" `, part),
        fill('task-mask_ ', part),
        `k = "${key}"\n`,
      ].join('\n');
      const bytesOf = Buffer.from(input);
      return { input, run: () => scanBuffer(bytesOf) };
    },
  };
}

/**
 * Split forms: quoted prefixes assigned to names used nowhere, long chains of quotes and plus signs; and the forms of
 * issue 35: prefixes ending lines (continued with a backslash, indented, or hard-wrapped), comments and backslashes
 * between literals, Python string prefixes.
 */
export function splitForms(key = routerKey()): Adversary<Finding[]> {
  const [head, tail] = [key.slice(0, 30), key.slice(30)];
  return {
    name: 'split forms',
    shape: "quoted prefixes assigned and never used, '' + '' chains, [ '…', ] arrays, prefixes ending lines, comments",
    build(bytes) {
      const part = bytes / 9;
      const input = [
        `const A = '${head}';\nconst B = '${tail}';\nconst k = A + B;\n`,
        fill("const P = 'sk-or-v1-';\n", part),
        fill("'' + '' + ", part),
        fill("['sk-or-v1-', 'a', ", part),
        fill('x = A + A + A;\n', part),
        fill('sk-or-v1-abc\\\n    ', part),
        fill('gsk_ab\nsk-proj-\n', part),
        fill("'sk-or-v1-'  # a note\n  \\\n", part),
        fill("'sk-or-v1-' rb'a' f'b' ", part),
      ].join('\n');
      return { input, run: () => scanText(input) };
    },
  };
}

/** Base64 triggers: a `data:` on every line of an indented block, lines of `_auth`, `Basic `, `"auth"`. */
export function base64Triggers(key = routerKey()): Adversary<Finding[]> {
  const options = optionsFor('secret.yaml', {});
  return {
    name: 'base64 triggers',
    shape: 'indented data: on every line, _auth / Basic / "auth" repeated on one line',
    build(bytes) {
      const part = bytes / 4;
      const input = [
        `kind: Secret\ndata:\n  OPENROUTER_API_KEY: ${b64(key)}`,
        fill('  data:\n', part * 2),
        fill('_auth Basic "auth" ', part),
        fill(`  data:\n  x: ${'QUFB'.repeat(8)}\n`, part),
      ].join('\n');
      return { input, run: () => scanText(input, options) };
    },
  };
}

/** Source maps: a map of many small sources, each with an allow comment, escapes in `names`, one key in a source. */
export function sourceMaps(key = routerKey()): Adversary<ShippedPart[]> {
  return {
    name: 'source maps',
    shape: 'many sources with allow comments, \\u00 escapes and backslash runs in names',
    build(bytes) {
      const count = Math.ceil(bytes / 200);
      const sources = Array.from({ length: count }, (_, i) => `src/m${i}.ts`);
      const contents = sources.map((_, i) => `// keyward-ignore\nexport const v${i} = 'sk-or-v1-';\n`);
      contents[count - 1] = `export const k = '${key}';\n`;
      const names = [fill('\\\\\\\\u0030', bytes / 8), fill('\\u0020', bytes / 8)];
      const input = JSON.stringify({ version: 3, sources, sourcesContent: contents, names, mappings: '' });
      const bytesOf = Buffer.from(input);
      return { input, run: () => scanShippedText(bytesOf, 'bundle.js.map', {}) };
    },
  };
}

/** Allow comments: spaces after every comment opener and pragma, keys on a long line, many disable comments. */
export function allowComments(key = routerKey()): Adversary<Finding[]> {
  return {
    name: 'allow comments',
    shape: 'a pragma then spaces, openers then spaces, keys on one long line, disable/enable floods',
    build(bytes) {
      const part = bytes / 6;
      const input = [
        `${key} # pragma: allowlist secret${' '.repeat(part)}x`,
        `${key} /* pragma: allowlist secret${' '.repeat(part)}x`,
        `${key} #${' '.repeat(part / 2)}<!--${' '.repeat(part / 2)}x`,
        `${fill(`${key} `, part)} pragma: no`,
        fill('# secretlint-disable a\n', part),
        fill('# secretlint-enable b\n', part),
        `k = ${key}\n`,
      ].join('\n');
      return { input, run: () => scanText(input) };
    },
  };
}

/**
 * The ignore file: a path and spaces without a reason, runs of '#', many entries, a glob of many stars matched
 * against a name that nearly fits it (backtracking tried every way to share its letters among the stars), and a long
 * comment block above an entry.
 */
export function ignoreFile(): Adversary<IgnoreRules> {
  const name = `${'a'.repeat(60)}.c`;
  return {
    name: 'ignore file',
    shape: "a path then spaces and no '#', runs of ' #', many lines, *a*a*a…b against aaa…c",
    build(bytes) {
      const part = bytes / 6;
      const input = [
        `a${' '.repeat(part)}b`,
        `a${fill(' #', part)} x\u2028x`,
        fill('0123456789abcdef  a reason\n', part),
        fill('dist/**/*.js  # generated\n', part),
        `${fill('*a', part)}b  # many stars`,
        // Issue 35: a long comment block above an entry is its reason, read once.
        `${fill('# the reason, over many lines\n', part)}gen/`,
      ].join('\n');
      return {
        input,
        run: () => {
          const rules = parseIgnoreFile(input);
          if (suppressionFor(rules, name, 'fedcba9876543210')) throw new Error(`${name} is suppressed`);
          return rules;
        },
      };
    },
  };
}

/** The baseline: many findings, long paths. Read from a file, as `--baseline` does. */
export function baselineFile(dir: string): Adversary<unknown> {
  return {
    name: 'baseline',
    shape: 'many findings with long paths',
    build(bytes) {
      const entry = { path: `${'deep/'.repeat(20)}x.env`, fingerprint: '0123456789abcdef', ruleId: 'r', masked: 'm' };
      const count = Math.ceil(bytes / JSON.stringify(entry).length);
      const input = JSON.stringify({ keyward: 'baseline', version: 1, findings: Array(count).fill(entry) });
      const file = join(dir, `baseline-${bytes}.json`);
      writeFileSync(file, input);
      return { input, run: () => readBaseline(file) };
    },
  };
}

setFlagsFromString('--expose-gc');
/** A full collection, as `node --expose-gc` offers it (taken from a fresh context once the flag is set). */
const collect = runInNewContext('gc') as () => void;

/**
 * CPU milliseconds of this thread per call: calls repeated until they used `budget` ms between them, the least of
 * `tries` such rounds. The kernel counts CPU time in ticks of a few milliseconds, so one short call reads as 0 or a
 * tick; a round long enough averages that out. Another job's load on the machine does not count, nor the engine's
 * own threads (its collector and compiler), which a busy machine's scheduling bills unevenly.
 */
export function cpuMs(run: () => unknown, tries = 3, budget = 150): number {
  let least = Infinity;
  for (let i = 0; i < tries; i++) {
    // The garbage of the runs before is collected first, not billed to these.
    collect();
    const before = process.threadCpuUsage();
    let calls = 0;
    let used = 0;
    do {
      run();
      calls++;
      const spent = process.threadCpuUsage(before);
      used = (spent.user + spent.system) / 1000;
    } while (used < budget);
    least = Math.min(least, used / calls);
  }
  return least;
}

/**
 * How the work grows with the input: the CPU time of 1 MB over that of 256 KB (4 when linear, 16 when quadratic),
 * after 64 KB to 256 KB, which already shows a quadratic detector without waiting minutes for its megabyte.
 * Returns the second step, or the first one when it is already past `bound` and the megabyte would be slow.
 */
export function growth(adversary: Adversary<unknown>, bound: number): number {
  const [small, middle] = [adversary.build(64 << 10), adversary.build(256 << 10)];
  // Compiled by the engine before anything is timed.
  for (let i = 0; i < 3; i++) small.run();
  const middleMs = cpuMs(middle.run, 2);
  const first = middleMs / cpuMs(small.run, 2);
  // Past the bound already, and the megabyte would take seconds: this step stands for it. A fast one is measured:
  // small inputs sit in the caches, and a linear parser read 11 from 64 KB to 256 KB and 5 from there to 1 MB.
  if (first > bound && middleMs * bound > 2000) return first;
  const large = adversary.build(1 << 20);
  return cpuMs(large.run) / cpuMs(middle.run);
}
