import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { maskKey } from '../../../src/core/redact.ts';
import { IncrementalScan } from '../../../src/core/scan/incremental.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { negativeCases, positiveCases } from '../scanCorpus.ts';

function utf16Position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) };
}

describe('scanner: positives', () => {
  it.each(positiveCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const findings = scanText(c.text);
    expect(findings.map((f) => f.masked)).toEqual(c.keys.map(maskKey));
    let from = 0;
    for (const [i, key] of c.keys.entries()) {
      const offset = c.text.indexOf(key, from);
      from = offset + key.length;
      const f = findings[i]!;
      expect({ line: f.line, column: f.column }).toEqual(utf16Position(c.text, offset));
      expect(f.endColumn - f.column).toBe(key.length);
      expect(f.startByte).toBe(Buffer.byteLength(c.text.slice(0, offset)));
      expect(f.endByte - f.startByte).toBe(Buffer.byteLength(key));
      expect(f.fingerprint).toBe(fingerprint(key));
      expect(JSON.stringify(f)).not.toContain(key);
    }
  });

  it('names the rule and service of each shape', () => {
    const text = [
      routerKey(),
      directKey('proj'),
      directKey('admin'),
      directKey('svcacct'),
      directKey('legacy'),
      ['sk', 'proj', `${'a1B2c3D4e5'.repeat(2)}T3BlbkFJ${'Z9y8X7w6V5'.repeat(2)}`].join('-'),
    ].join('\n');
    expect(scanText(text).map((f) => [f.ruleId, f.service, f.confidence])).toEqual([
      ['router-key', 'router', 'high'],
      ['direct-key', 'direct', 'high'],
      // An admin key manages the organization: a rule of its own (issue 33), loud wherever it is.
      ['direct-admin-key', 'direct', 'high'],
      ['direct-key', 'direct', 'high'],
      ['direct-key-legacy', 'direct', 'high'],
      ['direct-key-loose', 'direct', 'medium'],
    ]);
  });
});

describe('scanner: negatives', () => {
  it.each(negativeCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(scanText(c.text)).toEqual([]);
  });

  it('still flags a placeholder-looking or ignored value when it is the stored key', () => {
    const fake = ['sk', 'or', 'v1', '0'.repeat(64)].join('-');
    expect(scanText(`k=${fake}\n`, { known: [{ value: fake, service: 'router' }] })).toMatchObject([
      { stored: 'active' },
    ]);
  });

  it('stays linear on megabytes of adversarial input', () => {
    const text = 'sk-'.repeat(1_000_000) + 'sk-or-v1-' + 'a'.repeat(5_000_000);
    const start = performance.now();
    expect(scanText(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

describe('scanner: keys Keyward holds', () => {
  it('finds the stored key whatever its shape, and a rotated-out one by fingerprint', () => {
    const odd = ['custom', 'gateway', 'key', 'Zx81Qw'].join('_') + 'Q7p2Lm4N';
    const router = routerKey();
    const old = ['legacyproxy', 'K3y9ZZq1w2e3r4t5'].join('-');
    const text = `a=${odd}\nb="${router}"\nc=${old}\nd=not${odd}\n`;
    const findings = scanText(text, {
      known: [
        { value: odd, service: 'direct' },
        { value: router, service: 'router' },
      ],
      retired: [
        {
          service: 'router',
          fingerprint: fingerprint(old),
          prefix: old.slice(0, 11),
          suffix: old.slice(-4),
          length: old.length,
        },
      ],
    });
    expect(findings.map((f) => [f.ruleId, f.stored, f.line])).toEqual([
      ['stored-key', 'active', 0],
      ['router-key', 'active', 1],
      ['retired-key', 'retired', 2],
    ]);
    expect(findings[2]!.description).toMatch(/rotated out/);
  });
});

describe('scanner: properties', () => {
  const noise = fc.string({
    unit: fc.constantFrom(
      'a',
      'b',
      ' ',
      '\n',
      '\r',
      '"',
      "'",
      '=',
      ':',
      '-',
      'é',
      '中',
      '😀',
      'k',
      's',
      '/',
      '\\',
      '.',
      ',',
    ),
  });
  it('finds a key planted anywhere in random text at its exact range', () => {
    fc.assert(
      fc.property(noise, noise, fc.boolean(), (before, after, direct) => {
        const key = direct ? directKey('proj') : routerKey();
        // A planted key needs a boundary: a separator between it and the noise.
        const text = `${before} ${key} ${after}`;
        const findings = scanText(text).filter((f) => f.fingerprint === fingerprint(key));
        expect(findings).toHaveLength(1);
        const offset = text.indexOf(key);
        expect({ line: findings[0]!.line, column: findings[0]!.column }).toEqual(utf16Position(text, offset));
        expect(findings[0]!.startByte).toBe(Buffer.byteLength(text.slice(0, offset)));
      }),
      { numRuns: 300 },
    );
  });

  it('finds nothing in random text without the literal', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        fc.pre(!text.includes('sk-'));
        expect(scanText(text)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('the buffer fast path agrees with the text scan', () => {
    const key = routerKey();
    const text = `x\n“${key}”\n`;
    expect(scanBuffer(Buffer.from(text))).toEqual(scanText(text));
    expect(scanBuffer(Buffer.from('nothing here'))).toEqual([]);
  });
});

describe('incremental scan', () => {
  it('rescans only the edited lines and shifts the rest', () => {
    const keys = [routerKey(), routerKey(), directKey('proj')];
    const lines = ['one', `a=${keys[0]}`, 'two', `b=${keys[1]}`, 'three', `c=${keys[2]}`];
    const scan = new IncrementalScan();
    scan.reset(lines.join('\n'));
    expect(scan.findings.map((f) => f.line)).toEqual([1, 3, 5]);
    // Insert two lines after line 0, and break the key on (old) line 3.
    const next = [
      'one',
      'new 1',
      'new 2',
      `a=${keys[0]}`,
      'two',
      `b=${keys[1]!.slice(0, 20)}`,
      'three',
      `c=${keys[2]}`,
    ];
    scan.applyEdit({ startLine: 0, oldEndLine: 0, newEndLine: 2 }, (i) => next[i]!);
    expect(scan.findings.map((f) => f.line)).toEqual([3, 5, 7]);
    scan.applyEdit({ startLine: 5, oldEndLine: 5, newEndLine: 5 }, (i) => next[i]!);
    expect(scan.findings.map((f) => f.line)).toEqual([3, 7]);
    expect(scan.findings.map((f) => f.line)).toEqual(new IncrementalScan().reset(next.join('\n')).map((f) => f.line));
  });
});

describe('keyward-ignore-next-line', () => {
  it('a marker on the line before ignores that one line, in any comment syntax', () => {
    const [a, b] = [routerKey(), routerKey()];
    const text = `# keyward-ignore-next-line\nOPENROUTER_API_KEY=${a}\nOTHER=${b}\n`;
    expect(scanText(text).map((f) => f.line)).toEqual([2]);
    expect(scanText(`// keyward-ignore-next-line\r\nconst k = "${a}";\r\n`)).toEqual([]);
    // The ordinary marker names only its own line.
    expect(scanText(`# keyward-ignore\nOPENROUTER_API_KEY=${a}\n`).map((f) => f.line)).toEqual([1]);
    expect(scanText(`# keyward-ignore-next-line\n\nOPENROUTER_API_KEY=${a}\n`).map((f) => f.line)).toEqual([2]);
  });

  it('the incremental scan follows a marker added above a key, a key typed below a marker, and a marker removed', () => {
    const key = routerKey();
    const scan = new IncrementalScan();
    let lines = ['A=1', `KEY=${key}`, 'B=2'];
    scan.reset(lines.join('\n'));
    expect(scan.findings.map((f) => f.line)).toEqual([1]);
    // The quick fix inserts the marker as a new line above the key.
    lines = ['A=1', '# keyward-ignore-next-line', `KEY=${key}`, 'B=2'];
    scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 2 }, (i) => lines[i]);
    expect(scan.findings).toEqual([]);
    // The marker's text is edited away on its own line: the key below counts again.
    lines = ['A=1', '# note', `KEY=${key}`, 'B=2'];
    scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => lines[i]);
    expect(scan.findings.map((f) => f.line)).toEqual([2]);
    // A key typed on the line under a marker is ignored.
    lines = ['# keyward-ignore-next-line', 'X=', 'A=1'];
    scan.reset(lines.join('\n'));
    lines = ['# keyward-ignore-next-line', `X=${key}`, 'A=1'];
    scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => lines[i]);
    expect(scan.findings).toEqual([]);
    expect(scan.findings).toEqual(new IncrementalScan().reset(lines.join('\n')));
  });
});
