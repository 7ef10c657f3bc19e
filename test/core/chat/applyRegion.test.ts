// Apply merges an answer's block into the place it rewrites (issue 21 item 8), as Copilot's "Apply in Editor"
// does, instead of inserting it at whatever caret is active (a JS line once went into README.md).
import { describe, expect, it } from 'vitest';
import {
  applyPlace,
  declarationRegion,
  declaredNames,
  firstLineOf,
  mergeBlock,
  rewrites,
  namedPath,
} from '../../../src/core/chat/applyRegion.ts';

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

describe('the fence forms of issue 21 item 8', () => {
  it('reads title="…" in the info string and "# path:" in a first-line comment', () => {
    expect(namedPath('ts title="src/a.ts"', 'x')).toBe('src/a.ts');
    expect(namedPath('ts src/a.ts', 'x')).toBe('src/a.ts');
    expect(namedPath('python', '# path: x.py\nprint(1)')).toBe('x.py');
    expect(namedPath('ts', '// src/a.ts\nexport const a = 1;')).toBe('src/a.ts');
  });

  it('returns a path that leaves the workspace as written, for the host to refuse by name', () => {
    expect(namedPath('ts ../outside.ts', 'x')).toBe('../outside.ts');
    expect(namedPath('sh', '# path: /etc/profile.sh\necho')).toBe('/etc/profile.sh');
  });
});

describe('merging a block into the file', () => {
  it('replaces the function of the same name and keeps the rest byte for byte', () => {
    const merged = mergeBlock(file, "export function greet(name: string): string {\n  return 'yo';\n}\n", '\n');
    expect(merged.how).toBe('region');
    expect(merged.names).toEqual(['greet']);
    expect(merged.text).toBe(
      file.replace(
        /export function greet[\s\S]*?\n}\n/,
        "export function greet(name: string): string {\n  return 'yo';\n}\n",
      ),
    );
    // What Undo puts back: the replaced slice, at the same place.
    expect(
      merged.text.slice(0, merged.start) +
        file.slice(merged.start, merged.end) +
        merged.text.slice(merged.start + merged.replacement.length),
    ).toBe(file);
  });

  it('appends a block with nothing in common as whole lines, after a last line without a line break too', () => {
    expect(mergeBlock('a\n', 'b();\n', '\n').text).toBe('a\n\nb();\n');
    expect(mergeBlock('a', 'b();\n', '\n').text).toBe('a\n\nb();\n');
    expect(mergeBlock('', 'b();\n', '\n').text).toBe('b();\n');
    expect(mergeBlock('a\r\n', 'b();\nc();\n', '\r\n').text).toBe('a\r\n\r\nb();\r\nc();\r\n');
  });
});

// Issue 31 item 2: with greet() selected and "add a log line" asked, a block that was only `console.log("keyward");`
// replaced the function. A block replaces a region only when it is a new version of it.
describe('a block replaces what it rewrites, and is added otherwise', () => {
  const demo = 'function greet(name) {\n  return "hello " + name;\n}\n\nfunction other() {\n  return 1;\n}\n';
  const greet = { start: 0, end: demo.indexOf('\n\n') + 1 };

  it('adds an unrelated line at the end of the file, not over the function the prompt was about', () => {
    const merged = mergeBlock(demo, 'console.log("keyward");\n', '\n', [greet]);
    expect(merged).toMatchObject({ how: 'appended', text: `${demo}\nconsole.log("keyward");\n` });
    expect(firstLineOf(merged)).toBe(9);
  });

  it('replaces the lines the prompt was about when the block is their new version', () => {
    const region = 'const a = load();\nconst b = a + 1;\nreturn b;\n';
    const doc = `function f() {\n${region}}\n`;
    const about = { start: doc.indexOf('const a'), end: doc.indexOf('}') };
    const code = 'const a = load();\nconst b = a + 2;\nconsole.log(b);\nreturn b;\n';
    const merged = mergeBlock(doc, code, '\n', [about]);
    expect(merged).toMatchObject({ how: 'selection', text: `function f() {\n${code}}\n` });
    expect(firstLineOf(merged)).toBe(2);
  });

  it('the same declaration wins over the lines the prompt was about', () => {
    const code = 'function other() {\n  return 2;\n}\n';
    const merged = mergeBlock(demo, code, '\n', [greet]);
    expect(merged).toMatchObject({ how: 'region', names: ['other'] });
    expect(merged.text).toContain('function greet(name) {\n  return "hello " + name;\n}');
  });

  it('the lines asked about that are one declaration are replaced by name', () => {
    const code = 'function greet(name) {\n  console.log(name);\n  return "hello " + name;\n}\n';
    expect(mergeBlock(demo, code, '\n', [greet])).toMatchObject({ how: 'region', names: ['greet'] });
  });

  it('a region no prompt was about is never replaced by lines alone', () => {
    expect(mergeBlock('one\ntwo\nthree\n', 'two\n', '\n').how).toBe('appended');
  });

  it('rewrites: same declaration, half the lines kept, or two thirds of the names used', () => {
    const fn = 'function greet(name) {\n  return "hello " + name;\n}\n';
    expect(rewrites(fn, 'const greet = (name) => `hi ${name}`;\n')).toBe(true);
    expect(rewrites(fn, 'console.log("keyward");\n')).toBe(false);
    // Uses the function, does not rewrite it.
    expect(rewrites(fn, 'console.log(greet("you"));\n')).toBe(false);
    expect(rewrites('x = compute(a, b)\n', 'x = compute(a, b, c)\n')).toBe(true);
    expect(rewrites('total += price * count;\n', 'console.log(total);\n')).toBe(false);
    // Strings and comments do not count as names shared.
    expect(rewrites('log("alpha beta gamma");\n', 'print("alpha beta gamma")\n')).toBe(false);
    // A lone brace is not a line kept.
    expect(rewrites('}\n}\n', '}\n')).toBe(false);
    expect(rewrites('', 'a();\n')).toBe(false);
  });
});
