// The import boundaries of the house style are enforced by the lint config;
// this proves the rule fires where it must and stays quiet where it may.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Paths of existing files: the type-aware rules need the project to know the file (the text is ours).
const eslint = new ESLint();
// The first lint builds the type-aware program of the whole project: on a busy 2-core machine that alone can take
// longer than the default test timeout.
const PROGRAM_BUILD_MS = 180_000;

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// Type-aware lint starts a TypeScript program: a minute or more on a loaded 2-core machine.
describe('import boundaries', { timeout: 300_000 }, () => {
  it.each([
    ['src/core/json.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/shared/scopes.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/shared/scopes.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n"],
    ['src/core/json.ts', "import { Log } from '../host/log.ts';\nexport const l = Log;\n"],
    ['src/webview/blocks.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
    ['src/webview/blocks.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/cli/main.ts', "import { Log } from '../host/log.ts';\nexport const l = Log;\n"],
    ['src/host/log.ts', "import { element } from '../webview/dom.ts';\nexport const e = element;\n"],
    ['src/host/log.ts', "import { runCli } from '../cli/run.ts';\nexport const r = runCli;\n"],
  ])(
    'refuses the import in %s',
    async (file, code) => {
      expect(await restricted(file, code)).not.toEqual([]);
    },
    PROGRAM_BUILD_MS,
  );

  it.each([
    ['src/host/log.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/host/log.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
    [
      'src/webview/blocks.ts',
      "import { ERROR_KINDS } from '../shared/errorKinds.ts';\nexport const e = ERROR_KINDS;\n",
    ],
    ['src/cli/main.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
  ])('allows the import in %s', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});

describe('type-aware rules', { timeout: 300_000 }, () => {
  async function ruleIds(code: string): Promise<string[]> {
    // An existing file of the project, so the type checker knows it; its text is replaced by `code`.
    const [result] = await eslint.lintText(code, { filePath: 'src/core/json.ts' });
    return result!.messages.map((m) => m.ruleId ?? m.message);
  }

  it('refuses a promise nobody awaits', async () => {
    const code = 'async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n';
    expect(await ruleIds(code)).toContain('@typescript-eslint/no-floating-promises');
    expect(await ruleIds(code.replace('  f();', '  void f();'))).toEqual([]);
  });

  it('refuses a switch that misses a member of the union', async () => {
    const code =
      "export function h(x: 'a' | 'b'): number {\n  switch (x) {\n    case 'a':\n      return 1;\n  }\n  return 0;\n}\n";
    expect(await ruleIds(code)).toContain('@typescript-eslint/switch-exhaustiveness-check');
    expect(
      await ruleIds(code.replace('      return 1;\n', "      return 1;\n    case 'b':\n      return 2;\n")),
    ).toEqual([]);
  });
});

describe('lengths', { timeout: 300_000 }, () => {
  async function lengthRules(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((m) => m.ruleId ?? m.message).filter((id) => id.startsWith('max-lines'));
  }
  const fn = (lines: number) =>
    `export function f(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;

  it.each(['src/core/json.ts', 'src/host/log.ts', 'src/cli/main.ts', 'src/webview/blocks.ts'])(
    'in %s: a function over 80 lines and a file over 450 are refused; 80 and 450 pass',
    async (file) => {
      expect(await lengthRules(file, fn(81))).toEqual(['max-lines-per-function']);
      expect(await lengthRules(file, fn(80))).toEqual([]);
      expect(
        await lengthRules(
          file,
          `${'export const a = 1;\n'.repeat(451)}`.replace(/a =/g, (m, at) => `a${at} =`),
        ),
      ).toEqual(['max-lines']);
    },
  );
});
