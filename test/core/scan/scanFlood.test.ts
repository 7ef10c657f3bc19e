// Precision under attack: megabytes of generated near-miss legacy keys (one
// character short, so only the loose tier matches) must not flood a report or
// the memory: a few are listed, the rest counted.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../../src/core/scan/fileScan.ts';
import { LOOSE_CAP, scanText, scanTextCounted } from '../../../src/core/scan/scanner.ts';
import { DIRECT_KEY_INFIX, directKey, routerKey } from '../../emulator/keyFactory.ts';
import { tempDir } from '../../cli/gitFixtures.ts';

/** A legacy-shaped key with the last character cut: only the loose tier can match it. */
const nearMiss = () => directKey('legacy').slice(0, -1);

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Lines of near-misses, drawn from one block of random bytes (a key factory call per line is slow at 9 MB). */
function floodCorpus(bytes: number): { text: string; count: number } {
  const infix = DIRECT_KEY_INFIX;
  const count = Math.ceil(bytes / 60);
  const random = randomBytes(count * 39);
  const lines: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    let body = '';
    for (let j = 0; j < 39; j++) body += ALNUM[random[i * 39 + j]! % ALNUM.length];
    lines[i] = `KEY_${i}="sk-${body.slice(0, 20)}${infix}${body.slice(20)}"`;
  }
  return { text: lines.join('\n') + '\n', count };
}

describe('near-miss flood', () => {
  it('a near-miss is a medium-confidence finding on its own', () => {
    expect(scanText(`k = "${nearMiss()}"\n`).map((f) => f.confidence)).toEqual(['medium']);
  });

  it('lists at most LOOSE_CAP per text and counts the rest; high-confidence keys are never capped', () => {
    const { text, count } = floodCorpus(200_000);
    const keys = [routerKey(), directKey('proj')];
    const result = scanTextCounted(`${text}a=${keys[0]}\nb=${keys[1]}\n`);
    expect(result.findings.filter((f) => f.confidence === 'medium')).toHaveLength(LOOSE_CAP);
    expect(result.omitted).toBe(count - LOOSE_CAP);
    expect(result.findings.filter((f) => f.confidence === 'high')).toHaveLength(2);
  });

  it('9 MB of near-misses in a file: capped findings, the rest counted, memory bounded', () => {
    const dir = tempDir();
    const { text, count } = floodCorpus(9 << 20);
    const path = join(dir, 'flood.env');
    writeFileSync(path, text);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const outcome = scanFile(path);
    const grown = process.memoryUsage().rss - before;
    expect('findings' in outcome).toBe(true);
    if (!('findings' in outcome)) return;
    expect(outcome.findings).toHaveLength(LOOSE_CAP);
    expect(outcome.omitted).toBe(count - LOOSE_CAP);
    // Before the cap: 170,000 findings and 300 MB. With it, 111-119 MB of RSS here (no forced GC in the worker, so
    // garbage counts): the bound sits between the two, off the edge a busy machine's noise reaches.
    expect(grown).toBeLessThan(180 << 20);
  }, 120_000);
});
