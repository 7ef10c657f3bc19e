// The inline edit writes its answer back over the person's lines: a key the guard redacted must come back as the key,
// not as its placeholder, however the answer is cut into deltas. Keys are built here, never written out.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskRestorer } from '../../../src/core/chat/maskRestorer.ts';
import { guardPrompt, redactionMasks } from '../../../src/core/guards/secretGuard.ts';

const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');

function run(restorer: MaskRestorer, deltas: readonly string[]): string {
  return deltas.map((d) => restorer.push(d)).join('') + restorer.end();
}

/** Cuts `text` at the given points (sorted, deduplicated, inside the text). */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
}

describe('MaskRestorer', () => {
  it("puts the key back where the guard redacted it, from the placeholder the guard itself wrote; the guard's result holds no key", async () => {
    const key = routerKey();
    const code = `const a = 1;\nconst key = "${key}";\n`;
    const guarded = await guardPrompt(
      'tidy',
      [{ id: 'code', fileName: 'a.ts', languageId: 'typescript', startLine: 1, endLine: 3, text: code }],
      {},
      async () => 'redact',
    );
    const sent = guarded!.attachments[0]!.text;
    expect(JSON.stringify(guarded)).not.toContain(key);
    const answer = sent.replace('const a = 1;', 'const a = 2;');
    const restorer = new MaskRestorer(redactionMasks(code, {}));
    expect(run(restorer, [answer])).toBe(code.replace('const a = 1;', 'const a = 2;'));
    expect(restorer.left).toBe(0);
  });

  it('gives the same text however the answer is cut into deltas', () => {
    const key = routerKey();
    const placeholder = `[redacted key sk-or-v1-…${key.slice(-4)}]`;
    const masks = [{ placeholder, original: key }];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', '[', ']', '\n', ' ', '[redacted', ' key ', placeholder), { maxLength: 12 }),
        fc.array(fc.nat(400), { maxLength: 8 }),
        (parts, points) => {
          const answer = parts.join('');
          const whole = run(new MaskRestorer(masks), [answer]);
          expect(run(new MaskRestorer(masks), cut(answer, points))).toBe(whole);
          expect(whole).not.toContain(placeholder);
        },
      ),
    );
  });

  it('leaves a placeholder the model changed, or one two different keys share, and counts it', () => {
    const [one, two] = [routerKey(), routerKey()];
    const placeholder = '[redacted key sk-or-v1-…abcd]';
    const restorer = new MaskRestorer([
      { placeholder, original: one },
      { placeholder, original: two },
    ]);
    expect(run(restorer, [`x = "${placeholder}"; y = "[redacted key sk-or-…]"`])).toBe(
      `x = "${placeholder}"; y = "[redacted key sk-or-…]"`,
    );
    expect(restorer.left).toBe(2);
  });

  it('holds back nothing that cannot start a placeholder, and gives up on one that runs past its line', () => {
    const restorer = new MaskRestorer([]);
    expect(restorer.push('a[b] c')).toBe('a[b] c');
    expect(restorer.push('d [redac')).toBe('d ');
    expect(restorer.push('ted key x\nmore')).toBe('[redacted key x\nmore');
    expect(restorer.end()).toBe('');
  });
});
