// Keys assembled from string pieces (issue 23, part 3a): the forms code uses to get a key
// past a scanner that reads whole tokens, each reported with the split-key rule over the
// whole expression; and many adjacent strings that make no key, which stay silent.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { mayContainKey } from '../../../src/core/scan/literalPrecheck.ts';
import { guardPrompt } from '../../../src/core/guards/secretGuard.ts';
import { StreamScan } from '../../../src/core/scan/streamScan.ts';
import { IncrementalScan } from '../../../src/core/scan/incremental.ts';
import { directKey, providerKey, routerKey } from '../../emulator/keyFactory.ts';

/** The text a finding spans, across lines. */
function spanned(text: string, f: { line: number; column: number; endLine: number; endColumn: number }): string {
  const lines = text.split('\n');
  if (f.line === f.endLine) return lines[f.line]!.slice(f.column, f.endColumn);
  return [
    lines[f.line]!.slice(f.column),
    ...lines.slice(f.line + 1, f.endLine),
    lines[f.endLine]!.slice(0, f.endColumn),
  ].join('\n');
}

const key = routerKey();
const [head, tail] = [key.slice(0, 30), key.slice(30)];

const FORMS: [string, string, string][] = [
  ['two literals joined with +', `const k = '${head}' + '${tail}';\n`, `'${head}' + '${tail}'`],
  [
    'the prefix alone, then the body',
    `const k = "sk-or-v1-" + "${key.slice(9)}";\n`,
    `"sk-or-v1-" + "${key.slice(9)}"`,
  ],
  [
    'three pieces over two lines',
    `k = ("${head}" +\n  "${tail.slice(0, 20)}" + "${tail.slice(20)}")\n`,
    `"${head}" +\n  "${tail.slice(0, 20)}" + "${tail.slice(20)}"`,
  ],
  ['adjacent literals (Python, C)', `KEY = ("${head}"\n       "${tail}")\n`, `"${head}"\n       "${tail}"`],
  ['a literal and a constant', `const B = '${tail}';\nconst k = '${head}' + B;\n`, `'${head}' + B`],
  [
    'a template of two constants',
    `const A = '${head}';\nconst B = "${tail}";\nconst k = \`\${A}\${B}\`;\n`,
    `\`\${A}\${B}\``,
  ],
  ['two constants joined with +', `const A = '${head}';\nconst B = '${tail}';\nfetch(u, { key: A + B });\n`, 'A + B'],
  [
    'an array joined with an empty string',
    `const k = ['${head}', '${tail}'].join('');\n`,
    `['${head}', '${tail}'].join('')`,
  ],
  [
    'a template with the prefix in it',
    `const B = '${key.slice(9)}';\nconst k = \`sk-or-v1-\${B}\`;\n`,
    `\`sk-or-v1-\${B}\``,
  ],
];

describe('split keys: the forms', () => {
  it.each(FORMS)('%s', (_name, text, expression) => {
    const findings = scanText(text);
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      ruleId: 'split-key',
      service: 'router',
      confidence: 'medium',
      fingerprint: fingerprint(key),
    });
    expect(f!.masked).toBe(`sk-or-v1-…${key.slice(-4)}`);
    expect(spanned(text, f!)).toBe(expression);
    expect(JSON.stringify(f)).not.toContain(key);
    // The CLI's path: the precheck lets the file through, and the same finding comes out.
    expect(mayContainKey(Buffer.from(text))).toBe(true);
    expect(scanBuffer(Buffer.from(text))).toEqual(findings);
  });

  it('names the owner of a split key of any provider', () => {
    for (const whole of [
      directKey('proj'),
      providerKey('anthropic-key'),
      providerKey('groq-key'),
      providerKey('google-api-key'),
    ]) {
      // Before the direct key's infix: a piece that held it would be a (loose) key of its own.
      const cut = whole.startsWith('sk-') ? 12 : 4;
      const [f] = scanText(`k = '${whole.slice(0, cut)}' + '${whole.slice(cut)}'\n`);
      expect(f?.ruleId, whole.slice(0, 8)).toBe('split-key');
      expect(f!.fingerprint).toBe(fingerprint(whole));
    }
  });
});

describe('split keys: no finding for strings that make no key', () => {
  const k = routerKey();
  const NEGATIVES: [string, string][] = [
    ['"sk-" and a variable', `const k = "sk-" + userInput;\n`],
    ['the prefix and an unknown name', `const k = 'sk-or-v1-' + process.env.SUFFIX;\n`],
    ['the prefix and a call', `const k = 'sk-or-v1-' + read('key');\n`],
    ['the prefix and a short literal', `const label = 'sk-or-v1-' + '…3fa9';\n`],
    ['a piece and its other half one character short', `k = '${k.slice(0, 30)}' + '${k.slice(30, -1)}'\n`],
    ['a piece and its other half with one too many', `k = '${k.slice(0, 30)}' + '${k.slice(30)}0'\n`],
    ['unrelated adjacent strings', `print("sk-or-v1-" "is the prefix of a routing key")\n`],
    ['the prefix in a list of prefixes', `const PREFIXES = ['sk-or-v1-', 'sk-proj-', 'sk-ant-', 'gsk_', 'hf_'];\n`],
    ['a list joined with commas', `const s = ['sk-or-v1-', '${k.slice(9)}'].join(', ');\n`],
    ['a placeholder assembled', `const k = 'sk-or-v1-' + '${'x'.repeat(64)}';\n`],
    ['a repeated pattern assembled', `const k = 'sk-or-v1-' + '${'0123456789abcdef'.repeat(4)}';\n`],
    [
      'a constant defined far away',
      `const B = '${k.slice(9)}';\n${'// filler line\n'.repeat(400)}const x = 'sk-or-v1-' + B;\n`,
    ],
    ['a constant that is not a literal', `const B = compute();\nconst x = 'sk-or-v1-' + B;\n`],
    ['a template with an expression', `const A = 'sk-or-v1-';\nconst x = \`\${A}\${B.trim()}\`;\n`],
    ['a property access, not the constant', `const B = '${k.slice(9)}';\nconst x = 'sk-or-v1-' + obj.B;\n`],
    ['a masked key and a note', `log('sk-or-v1-…3fa9' + ' was rotated');\n`],
    ['a whole key in one literal (reported once, by its own rule)', `const k = '${k}' + 'suffix';\n`],
  ];
  it.each(NEGATIVES)('%s', (name, text) => {
    const findings = scanText(text);
    if (name.startsWith('a whole key')) expect(findings.map((f) => f.ruleId)).toEqual(['router-key']);
    else expect(findings).toEqual([]);
  });

  it('costs one search per prefix on code without a quoted prefix', () => {
    const text = 'const task = "sk-learn"; const desk = `${a}${b}`; x = "a" + "b";\n'.repeat(20_000);
    expect(mayContainKey(Buffer.from(text))).toBe(false);
    const start = performance.now();
    expect(scanText(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('split keys: floods stay cheap', () => {
  it('a file of many quoted prefixes and names', () => {
    const text = `const a = '';\n${"x = 'sk-or-v1-' + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a;\n".repeat(20_000)}`;
    const start = performance.now();
    expect(scanText(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(3_000);
  });

  it('a template flood and a long run of spaces after a prefix', () => {
    const text = `const A = 'sk-or-v1-';\n${'y = `${A}${A}${A}`;\n'.repeat(20_000)}'sk-proj-'${' '.repeat(2_000_000)}+ 'x'\n`;
    const start = performance.now();
    expect(scanText(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(3_000);
  });
});

describe('split keys in a prompt', () => {
  it('the secret guard redacts every piece of a key split over lines, and what follows survives', async () => {
    const key = routerKey();
    const prompt = `why does this fail?\nconst k = '${key.slice(0, 30)}' +\n  '${key.slice(30, 50)}' +\n  '${key.slice(50)}'; run(k);\nthanks`;
    const sent = await guardPrompt(prompt, [], {}, () => Promise.resolve('redact'));
    expect(sent!.prompt).toBe(
      `why does this fail?\nconst k = [redacted key sk-or-v1-…${key.slice(-4)}]; run(k);\nthanks`,
    );
  });
});

describe('split keys in a file read in windows', () => {
  it('a split key over two lines, after a line longer than a window, ends where it ends', () => {
    const key = routerKey();
    const text = `${'z'.repeat(40_000)} k = '${key.slice(0, 30)}' +\n  '${key.slice(30)}';\n`;
    const stream = new StreamScan({}, 16 << 10);
    stream.push(Buffer.from(text));
    const streamed = stream.end();
    expect(streamed).toEqual(scanText(text));
    expect(streamed[0]).toMatchObject({ ruleId: 'split-key', line: 0, endLine: 1, endColumn: 4 + key.length - 30 });
  });
});

describe('split keys in an open document', () => {
  it('an edit to one piece, or to the line that joins them, updates the finding', () => {
    const key = routerKey();
    const lines = [
      `const A = '${key.slice(0, 30)}';`,
      `const B = '${key.slice(30)}';`,
      'x = 1;',
      'const k = `${A}${B}`;',
    ];
    const scan = new IncrementalScan();
    expect(scan.reset(lines.join('\n')).map((f) => [f.ruleId, f.line])).toEqual([['split-key', 3]]);
    // Break the second piece: the key is gone.
    lines[1] = `const B = '${key.slice(30, -1)}';`;
    expect(scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => lines[i])).toEqual([]);
    // Mend it: back, though the joining line was not edited.
    lines[1] = `const B = '${key.slice(30)}';`;
    expect(scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => lines[i]).map((f) => f.line)).toEqual([
      3,
    ]);
    // An edit elsewhere keeps it.
    lines[2] = 'x = 2;';
    expect(scan.applyEdit({ startLine: 2, oldEndLine: 2, newEndLine: 2 }, (i) => lines[i]).map((f) => f.line)).toEqual([
      3,
    ]);
  });

  it('typing the first piece into a document that had none finds a key joined with a constant above', () => {
    const key = routerKey();
    const lines = [`const B = '${key.slice(30)}';`, 'const k = 0;'];
    const scan = new IncrementalScan();
    expect(scan.reset(lines.join('\n'))).toEqual([]);
    lines[1] = `const k = '${key.slice(0, 30)}' + B;`;
    expect(
      scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => lines[i]).map((f) => f.ruleId),
    ).toEqual(['split-key']);
  });
});

describe('split keys in an open document: the cheap path stays', () => {
  it('a document whose quoted prefixes are all whole keys is still rescanned by the edited lines only', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => (i % 100 === 0 ? `k = "${routerKey()}";` : `x${i} = ${i};`));
    const scan = new IncrementalScan();
    expect(scan.reset(lines.join('\n'))).toHaveLength(20);
    // Were the whole text read, a line the edit never touched would be asked for.
    const asked = new Set<number>();
    lines[1000] = 'x1000 = 0;';
    scan.applyEdit({ startLine: 1000, oldEndLine: 1000, newEndLine: 1000 }, (i) => {
      asked.add(i);
      return lines[i];
    });
    expect([...asked].every((i) => i >= 999 && i <= 1001)).toBe(true);
  });
});
