// What `keyward scan` says in words: no empty note after a finding git was not asked about, and a help
// text that says what the scanner finds (every provider's keys, not only the two services').
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/core/scan/providerRules.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { makeRepo, scanCli, tempDir } from './gitFixtures.ts';

describe('keyward scan wording', () => {
  it('a --no-git finding ends with its masked key, never with empty brackets', () => {
    const repo = makeRepo(tempDir(), false);
    const key = routerKey();
    repo.write('a.ts', `export const k = "${key}";\n`);
    const run = scanCli(repo.dir, ['--no-git']);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^a\\.ts:1:19: routing service key sk-or-v1-…${key.slice(-4)}$`, 'm'));
    expect(run.stdout).not.toContain('()');
    const sarif = scanCli(repo.dir, ['--no-git', '--format', 'sarif']);
    expect(sarif.stdout).not.toContain('()');
  });

  it("scan --help says it finds other providers' keys too", () => {
    const run = scanCli(tempDir(), ['--help']);
    expect(run.status).toBe(0);
    const first = run.stdout.split('\n\n')[1]!;
    expect(first).not.toMatch(/^Finds routing- and direct-service keys/);
    expect(first).toMatch(/^Finds API keys .*other\s+AI\s+providers/s);
    for (const { title } of Object.values(PROVIDERS)) expect(first.replace(/\s+/g, ' ')).toContain(title);
  });
});
