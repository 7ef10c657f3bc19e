// The import boundaries of the house style are enforced by the lint config;
// this proves the rule fires where it must and stays quiet where it may.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src/core/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/shared/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/shared/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n"],
    ['src/core/x.ts', "import { Log } from '../host/log.ts';\nexport const l = Log;\n"],
    ['src/webview/x.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
    ['src/webview/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/cli/x.ts', "import { Log } from '../host/log.ts';\nexport const l = Log;\n"],
  ])('refuses the import in %s', async (file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  it.each([
    ['src/host/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/host/x.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
    ['src/webview/x.ts', "import { ERROR_KINDS } from '../shared/errorKinds.ts';\nexport const e = ERROR_KINDS;\n"],
    ['src/cli/x.ts', "import { maskKey } from '../core/redact.ts';\nexport const m = maskKey;\n"],
  ])('allows the import in %s', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
