// `npm install && npm test` must pass on a machine with Node and git alone (the
// README's promise). A vitest suite that runs another program (pre-commit,
// Chromium, unzip, ripgrep...) belongs to `npm run test:e2e`, the tier .ci/run
// installs system packages for (test/e2e/system). This keeps them apart.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a Debian machine with Node and git has: git, Node's own tools, and its essential coreutils, util-linux, bash
 * and tar; and script (essential bsdutils: the progress line's test makes a terminal with it, and skips where
 * util-linux's form of it is missing).
 */
const BASE_TOOLS = new Set([
  'git',
  'node',
  'npm',
  'npx',
  'bash',
  'sh',
  'ls',
  'chmod',
  'mkfifo',
  'setpriv',
  'tar',
  'script',
]);

/** The programs a source text starts by name (a spawnSync of the tool's name, and the like). */
export function programsRun(text: string): string[] {
  const calls = /\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*['"`]([^'"`/]+)['"`]/g;
  return [...text.matchAll(calls)].map((m) => m[1]!);
}

function suiteFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((file) => !relative(TEST, file).startsWith('e2e') && file !== fileURLToPath(import.meta.url));
}

describe('npm test needs Node and git only', () => {
  it('no vitest suite outside test/e2e runs a program a fresh machine lacks', () => {
    const foreign = suiteFiles(TEST).flatMap((file) =>
      programsRun(readFileSync(file, 'utf8'))
        .filter((program) => !BASE_TOOLS.has(program))
        .map((program) => `${relative(TEST, file)}: ${program}`),
    );
    expect(foreign).toEqual([]);
  });

  it('the check sees a system tool started by name', () => {
    // Built from parts, so this file itself starts no tool by name (and no grep for such calls lists it).
    const call = (fn: string, quote: string, tool: string) => `${fn}(${quote}${tool}${quote}, [])`;
    expect(programsRun(call('spawnSync', "'", 'pre-commit'))).toEqual(['pre-commit']);
    expect(programsRun(call('execFileSync', '"', 'chromium'))).toEqual(['chromium']);
    expect(programsRun('spawn(process.execPath, [cli])')).toEqual([]);
  });
});
