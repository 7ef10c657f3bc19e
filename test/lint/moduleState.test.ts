// No module-level `let` in src/core: state lives in an object that owns it, or in a const lazy holder
// (core/lazy.ts), so that no function of the file can reassign it behind another's back.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph } from './importGraph.ts';

const CORE = fileURLToPath(new URL('../../src/core', import.meta.url));

/** The names a file declares with a top-level `let`. */
export function moduleLets(text: string): string[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) =>
    ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Let
      ? statement.declarationList.declarations.map((d) => d.name.getText(source))
      : [],
  );
}

describe('module-level state in src/core', () => {
  const holders = [...importGraph(CORE).keys()]
    .filter((file) => moduleLets(readFileSync(`${CORE}/${file}`, 'utf8')).length > 0)
    .sort();

  it('no file declares a module-level let (archive.ts passes its unpackers down, precheck.ts keeps one search object)', () => {
    expect(holders).toEqual([]);
  });

  it('sees a top-level let and not one inside a function', () => {
    expect(moduleLets('let a = 1;\nconst b = 2;\nfunction f() { let c = 3; return c; }\nexport let d = 4;')).toEqual([
      'a',
      'd',
    ]);
  });
});
