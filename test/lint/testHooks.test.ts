// Production classes carry no members for tests alone: a test reads state through the public API or through a
// helper of its own under test/ (test/core/monitor/monitorState.ts). A member nothing in src/ calls is such a hook.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const CLASSES = [{ file: 'core/monitor/accountMonitor.ts', name: 'AccountMonitor' }];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The public methods and getters a class declares. */
export function publicMembers(text: string, className: string): string[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const found = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  return (found?.members ?? [])
    .filter((m) => (ts.isMethodDeclaration(m) || ts.isGetAccessor(m)) && ts.isIdentifier(m.name))
    .filter((m) => !(ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)))
    .map((m) => (m.name as ts.Identifier).text);
}

describe('test hooks in production classes', () => {
  it.each(CLASSES)('every public member of $name is used in src/', ({ file, name }) => {
    const others = sources(SRC)
      .filter((path) => relative(SRC, path) !== file)
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const unused = publicMembers(readFileSync(join(SRC, file), 'utf8'), name).filter(
      (member) => !new RegExp(`\\.${member}\\b`).test(others),
    );
    expect(unused).toEqual([]);
  });

  it('reads the public members of a class', () => {
    const text = 'class A { a() {}\n private b() {}\n get c() { return 1; }\n protected d() {} }';
    expect(publicMembers(text, 'A')).toEqual(['a', 'c']);
  });
});
