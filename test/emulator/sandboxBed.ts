// One test bed for a vitest file, its sandbox accounts reset before each test (the usual set-up of the CLI,
// answer-ending and language-model tool tests): `bed` and `keys` are read after the hooks have run.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';
import type { Sandbox } from './sandbox.ts';

export interface SandboxBed {
  bed: TestBed;
  /** This test's sandbox keys (new after each reset). */
  keys: Sandbox['keys'];
}

export function sandboxBed(): SandboxBed {
  const state = {} as SandboxBed;
  beforeAll(async () => {
    state.bed = await startTestBed();
  });
  afterAll(() => state.bed.close());
  beforeEach(async () => {
    await state.bed.admin('POST', '/reset', { sandbox: true });
    state.keys = state.bed.emulator.sandbox!.keys;
  });
  return state;
}
