// The dogfood step of `npm run package` (scripts/scanVsix.ts): a key planted in
// a VSIX-shaped archive fails it; a clean one passes.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { routerKey } from '../emulator/keyFactory.ts';
import { tempDir } from './gitFixtures.ts';

const SCRIPT = resolve('scripts/scanVsix.ts');
const text = (s: string) => new TextEncoder().encode(s);

function vsix(dir: string, bundle: string): string {
  const path = join(dir, 'keyward.vsix');
  writeFileSync(
    path,
    zipSync({
      'extension.vsixmanifest': text('<PackageManifest/>'),
      'extension/package.json': text('{"name":"keyward"}'),
      'extension/dist/extension.js': text(bundle),
    }),
  );
  return path;
}

const check = (path: string) => spawnSync(process.execPath, [SCRIPT, path], { encoding: 'utf8' });

describe('npm run package scans its own VSIX', () => {
  it('package runs the check after vsce', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(pkg.scripts.package).toMatch(/vsce package .*&& node scripts\/scanVsix\.ts keyward\.vsix$/);
  });

  it('a planted key fails the check, named at its inner path', () => {
    const run = check(vsix(tempDir(), `var a=1;var k="${routerKey()}";`));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('keyward.vsix!extension/dist/extension.js:1:16:');
    expect(run.stderr).toContain('ships a key');
  });

  it('a clean VSIX passes', () => {
    const run = check(vsix(tempDir(), 'var a=1;'));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('ships no key');
  });
});
