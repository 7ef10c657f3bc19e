// The bench's floor lines (bench/scanFloor.ts): the plain read they time really reads a folder's files, and the
// arithmetic says what a goal leaves for scanning, or that it leaves nothing. Not a benchmark: no time is checked.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Run } from '../../bench/processTimes.ts';
import { floorCommands, floorLines, historyFloorLine } from '../../bench/scanFloor.ts';

const root = mkdtempSync(join(tmpdir(), 'keyward-floor-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const runs = (wallMs: number, cpuMs = wallMs): Run[] => [{ wallMs, cpuMs }];

test('the plain read lists a folder and reads its files, a subfolder and an empty file included', () => {
  writeFileSync(join(root, 'a.js'), 'x'.repeat(100_000));
  writeFileSync(join(root, 'empty.txt'), '');
  mkdirSync(join(root, 'sub'));
  const [start, read] = floorCommands(root);
  expect(start).toEqual([process.execPath, '-e', '0']);
  expect(read![1]).toBe(resolve('bench/readLoop.js'));
  const run = spawnSync(read![0]!, read!.slice(1), { encoding: 'utf8' });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  // A folder it cannot list fails loudly: a floor timed on nothing would be no floor.
  const missing = spawnSync(process.execPath, [read![1]!, join(root, 'missing')], { encoding: 'utf8' });
  expect(missing.status).not.toBe(0);
});

test('the floor says how much of the goal is left for scanning, and when nothing is', () => {
  const [read, best] = floorLines([runs(80), runs(300)], runs(200), runs(120), runs(500, 600), 2, 1.3);
  expect(read).toContain('1.50x rg -P -j1');
  expect(read).toContain('leaves nothing for scanning (40.00 ms short)');
  expect(best).toContain('300.00 ms = 2.50x rg -P on all cores');
  const [roomy] = floorLines([runs(80), runs(150)], runs(200), runs(120), runs(500, 600), 2, 1.3);
  expect(roomy).toContain('leaves 110.00 ms for scanning');
  expect(historyFloorLine(runs(900, 1200), runs(500), 2)).toContain('600.00 ms = 1.20x one git log -p');
});
