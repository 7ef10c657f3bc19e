import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockSplitter } from '../../src/webview/blocks.ts';

function splitBlocks(text: string): { done: string[]; tail: string } {
  const splitter = new BlockSplitter();
  return { done: splitter.feed(text), tail: splitter.tail(text) };
}

/** The whole-text split the panel used before it split incrementally: the oracle for the incremental one. */
function wholeTextSplit(text: string): { done: string[]; tail: string } {
  const done: string[] = [];
  let start = 0;
  let inFence = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && lineEnd < text.length && lineStart > start) {
      done.push(text.slice(start, lineStart));
      start = lineEnd + 1;
    }
    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
  }
  return { done, tail: text.slice(start) };
}

describe('streamed markdown blocks', () => {
  it('finishes a block at a blank line and keeps the growing tail apart', () => {
    expect(splitBlocks('para one\n\npara two\n\nthe ta')).toEqual({
      done: ['para one\n', 'para two\n'],
      tail: 'the ta',
    });
  });

  it('does not split inside a code fence', () => {
    const text = 'intro\n\n```js\na();\n\nb();\n```\n\nafter';
    expect(splitBlocks(text)).toEqual({ done: ['intro\n', '```js\na();\n\nb();\n```\n'], tail: 'after' });
  });

  it('fed a stream in any pieces, finishes the same blocks as a split of the whole text at every step', () => {
    const piece = fc.constantFrom('a', ' ', '\n', '\n\n', '```', '   ```ts', '~~~', ' \t', '\r\n', 'word ', '- x\n');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 6 }), { maxLength: 40 }), (deltas) => {
        const splitter = new BlockSplitter();
        const done: string[] = [];
        let text = '';
        for (const delta of deltas) {
          text += delta.join('');
          done.push(...splitter.feed(text));
          expect({ done, tail: splitter.tail(text) }).toEqual(wholeTextSplit(text));
        }
      }),
      { numRuns: 300 },
    );
  });
});
