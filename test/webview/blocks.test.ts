import { describe, expect, it } from 'vitest';
import { splitBlocks } from '../../src/webview/blocks.ts';

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
});
