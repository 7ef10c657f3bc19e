// Every detector is linear in its input (issue 31): fed a megabyte built to make it work hardest, it does about four
// times the work of a quarter of that, where a quadratic one does sixteen (a YAML file of `data:` lines took 33 s at
// 256 KB). The work is this process's CPU time, the least of a few runs, so a busy machine's other jobs do not count;
// the bound sits between linear and quadratic. The findings on such input are still the right ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import {
  type Adversary,
  allowComments,
  base64Triggers,
  baselineFile,
  growth,
  ignoreFile,
  prefixes,
  sourceMaps,
  splitForms,
} from './adversarialInputs.ts';

/** Between linear (4) and quadratic (16). */
const BOUND = 10;
const MINUTES = 10 * 60_000;

const dir = mkdtempSync(join(tmpdir(), 'keyward-adversarial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function linear(adversary: Adversary<unknown>): void {
  expect(growth(adversary, BOUND), `${adversary.name}: CPU time of 1 MB over 256 KB`).toBeLessThan(BOUND);
}

describe('the measure', () => {
  it('reads a quadratic detector as past the bound, and a linear one as within it', { timeout: MINUTES }, () => {
    // Pairs of characters compared, every one with every other: the quadratic detector a test must catch.
    const quadratic: Adversary<number> = {
      name: 'quadratic',
      shape: 'every pair',
      build(bytes) {
        const input = 'x'.repeat(bytes >> 6);
        return { input, run: () => pairs(input) };
      },
    };
    const linearOne: Adversary<number> = {
      name: 'linear',
      shape: 'each character once',
      build(bytes) {
        const input = 'x'.repeat(bytes);
        return { input, run: () => input.split('x').length };
      },
    };
    expect(growth(quadratic, BOUND)).toBeGreaterThan(BOUND);
    expect(growth(linearOne, BOUND)).toBeLessThan(BOUND);
  });
});

function pairs(text: string): number {
  let same = 0;
  for (let i = 0; i < text.length; i++) for (let j = 0; j < i; j++) if (text[i] === text[j]) same++;
  return same;
}

describe('each detector is linear on input built against it', () => {
  it('prefixes', { timeout: MINUTES }, () => {
    const key = routerKey();
    linear(prefixes(key));
    const findings = prefixes(key)
      .build(1 << 20)
      .run();
    expect(findings.map((f) => [f.ruleId, f.fingerprint])).toEqual([['router-key', fingerprint(key)]]);
  });

  it('split forms', { timeout: MINUTES }, () => {
    const key = routerKey();
    linear(splitForms(key));
    const findings = splitForms(key)
      .build(1 << 20)
      .run();
    expect(findings.map((f) => [f.ruleId, f.fingerprint])).toEqual([['split-key', fingerprint(key)]]);
  });

  it('base64 triggers: a YAML file of data: lines', { timeout: MINUTES }, () => {
    const key = routerKey();
    linear(base64Triggers(key));
    const findings = base64Triggers(key)
      .build(1 << 20)
      .run();
    expect(findings.map((f) => [f.ruleId, f.line, f.fingerprint])).toEqual([['encoded-key', 2, fingerprint(key)]]);
  });

  it('source maps', { timeout: MINUTES }, () => {
    const key = routerKey();
    linear(sourceMaps(key));
    const parts = sourceMaps(key)
      .build(1 << 20)
      .run();
    expect(parts.map((p) => [p.source, p.findings.map((f) => f.fingerprint)])).toEqual([
      [expect.stringMatching(/^src\/m\d+\.ts$/), [fingerprint(key)]],
    ]);
  });

  it('allow comments', { timeout: MINUTES }, () => {
    const key = routerKey();
    linear(allowComments(key));
    const { input, run } = allowComments(key).build(1 << 20);
    const findings = run();
    // The first line's pragma hides its key (detect-secrets lets any text follow it); no other comment hides one: the
    // second pragma's comment is not closed, the disables name another rule.
    const keys = input.split(key).length - 1;
    expect(findings).toHaveLength(keys - 1);
    expect(findings.filter((f) => f.line === 0)).toEqual([]);
    expect(new Set(findings.map((f) => f.fingerprint))).toEqual(new Set([fingerprint(key)]));
  });

  it('the ignore file parser', { timeout: MINUTES }, () => {
    linear(ignoreFile());
    const { input, run } = ignoreFile().build(1 << 20);
    const rules = run();
    expect(rules.problems.map((p) => p.line)).toEqual([1, 2]);
    expect(rules.entries).toHaveLength(
      input.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length - 2,
    );
  });

  it('the baseline parser', { timeout: MINUTES }, () => {
    linear(baselineFile(dir));
    const { input, run } = baselineFile(dir).build(1 << 20);
    expect((run() as { entries: unknown[] }).entries).toHaveLength(
      (JSON.parse(input) as { findings: unknown[] }).findings.length,
    );
  });
});
