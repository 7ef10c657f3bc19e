// The byte-level precheck: a file that only mentions "sk-" ("task-", a flag)
// is never decoded, any token that could classify is, and it stays linear.
import { describe, expect, it } from 'vitest';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { mayContainKey } from '../../../src/core/scan/literalPrecheck.ts';
import { PROVIDER_KEY_RULES, directKey, providerKey, routerKey } from '../../emulator/keyFactory.ts';

describe('mayContainKey', () => {
  it('passes over words and flags with "sk-" in them', () => {
    expect(mayContainKey(Buffer.from('const task-list = desk-top; run --sk-x; "sk-" + x; risk-free\n'))).toBe(false);
  });

  it('lets through every token that could classify, wherever it sits', () => {
    for (const key of [routerKey(), directKey('proj'), directKey('legacy'), directKey('legacy').slice(0, -1)]) {
      for (const text of [key, `a="${key}"`, `x\\n${key}`, `task-sk-${key}`, `ünï ${key} ü`])
        expect(mayContainKey(Buffer.from(text)), text.replace(key, 'KEY')).toBe(true);
    }
  });

  it("lets through every provider's key after a run of dashes or underscores, and in one", () => {
    // The precheck searches "-", "_" and "za" and skips the copies that follow each hit (a "---" rule,
    // "__esModule"): none of them ends a prefix, but a prefix's own "-" or "_" must never be skipped.
    const keys = [routerKey(), directKey('proj'), ...PROVIDER_KEY_RULES.map((rule) => providerKey(rule))];
    for (const key of keys)
      for (const text of [`--- ${key}`, `__ ${key}`, `x-- "${key}"`, `a__${'_'.repeat(9)}\n${key} --__`, `---\n${key}`])
        expect(mayContainKey(Buffer.from(text)), text.replace(key, 'KEY')).toBe(true);
  });

  it('agrees with the scanner: nothing it passes over holds a finding', () => {
    const key = directKey('proj');
    const samples = [`sk-${key.slice(3)}`, `xsk-${key.slice(3)}`, `sk-or-v1-${'a'.repeat(64)}`, 'sk-'.repeat(50)];
    for (const text of samples) {
      const bytes = Buffer.from(text);
      if (!mayContainKey(bytes)) expect(scanBuffer(Buffer.from(`${text}\n`))).toEqual([]);
    }
  });

  it("stays linear on megabytes of the other providers' prefixes and of their long runs", () => {
    for (const prefix of ['gsk_', 'hf_', 'r8_', 'fw_', 'tgp_v1_', 'xai-', 'pplx-', 'AIza', 'sk-ant-'])
      for (const bytes of [Buffer.from(prefix.repeat(500_000)), Buffer.from(`${prefix}${'a'.repeat(3_000_000)}`)]) {
        const start = performance.now();
        expect(mayContainKey(bytes), prefix).toBe(false);
        expect(scanBuffer(bytes), prefix).toEqual([]);
        expect(performance.now() - start, prefix).toBeLessThan(2_000);
      }
  });

  it('stays linear on megabytes of "sk-sk-sk-" and of one long run', () => {
    const bytes = Buffer.from('sk-'.repeat(1_000_000) + 'sk-or-v1-' + 'a'.repeat(5_000_000));
    const start = performance.now();
    expect(mayContainKey(bytes)).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
