// Apply merges an answer's block into the place it rewrites (issue 21 item 8), as Copilot's "Apply in Editor"
// does, instead of inserting it at whatever caret is active (a JS line once went into README.md).
import { describe, expect, it } from 'vitest';
import { applyPlace, declarationRegion, declaredNames, namedPath } from '../../../src/core/chat/applyRegion.ts';

const file = [
  "import { x } from './x';",
  '',
  'export function greet(name: string): string {',
  '  if (name) {',
  '    return `hi ${name}`;',
  '  }',
  "  return 'hi';",
  '}',
  '',
  'export class Counter {',
  '  count = 0;',
  '}',
  '',
].join('\n');

describe('the file a block names', () => {
  it('reads a path from the fence info or a first-line comment', () => {
    expect(namedPath('ts src/greet.ts', 'x')).toBe('src/greet.ts');
    expect(namedPath('ts:src/greet.ts', 'x')).toBe('src/greet.ts');
    expect(namedPath('python path=tools/run.py', 'x')).toBe('tools/run.py');
    expect(namedPath('ts', '// src/greet.ts\nexport const a = 1;')).toBe('src/greet.ts');
    expect(namedPath('python', '# file: tools/run.py\nprint(1)')).toBe('tools/run.py');
    expect(namedPath('css', '/* media/panel.css */\n.a {}')).toBe('media/panel.css');
  });

  it('names nothing for a bare language or an ordinary comment', () => {
    expect(namedPath('ts', '// add the greeting\nconst a = 1;')).toBeUndefined();
    expect(namedPath('', 'const a = 1;')).toBeUndefined();
    expect(namedPath('js', 'console.log(1)')).toBeUndefined();
  });
});

describe('the region a block rewrites', () => {
  it('finds the declarations a block makes', () => {
    expect(declaredNames('export function greet() {}\nclass Counter {}\ndef run():\n  pass')).toEqual([
      'greet',
      'Counter',
      'run',
    ]);
  });

  it('replaces the function of the same name, whole, and nothing else', () => {
    const block = "export function greet(name: string): string {\n  return `hello ${name || 'you'}`;\n}\n";
    const place = applyPlace(file, block);
    expect(place.how).toBe('region');
    expect(place.names).toEqual(['greet']);
    const merged = file.slice(0, place.start) + block + file.slice(place.end);
    expect(merged).toContain("import { x } from './x';");
    expect(merged).toContain('export class Counter {');
    expect(merged).not.toContain("return 'hi';");
    expect(merged.match(/function greet/g)).toHaveLength(1);
  });

  it('finds a Python function by its indented body', () => {
    const py = 'import os\n\ndef run(a):\n    x = 1\n\n    return x\n\ndef other():\n    pass\n';
    const region = declarationRegion(py, 'run')!;
    expect(py.slice(region.start, region.end)).toBe('def run(a):\n    x = 1\n\n    return x\n\n');
  });

  it('with no declaration in common, says the block goes at the end of the file, never at a caret', () => {
    expect(applyPlace(file, 'console.log(1);\n')).toEqual({
      start: file.length,
      end: file.length,
      how: 'appended',
      names: [],
    });
  });
});
