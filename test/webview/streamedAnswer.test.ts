// @vitest-environment jsdom
// The streaming answer's drawing: every finished block once, in order, in groups; a burst spread over frames
// within a time budget; the end drawn only after every block.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnswerDrawing, StreamedAnswer } from '../../src/webview/streamedAnswer.ts';

let clock = 0;
let frames: (() => void)[] = [];

beforeEach(() => {
  clock = 0;
  frames = [];
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A drawing where each block costs `cost` ms of the fake clock. */
function setUp(cost: number) {
  const answer = document.createElement('div');
  const tail = document.createElement('div');
  answer.append(tail);
  document.body.replaceChildren(answer);
  const drawn: string[] = [];
  const drawing: AnswerDrawing = {
    blocks: (texts) =>
      texts.map((text) => {
        clock += cost;
        drawn.push(text);
        const block = document.createElement('p');
        block.textContent = text;
        return block;
      }),
    tail: (text) => `<i>${text}</i>`,
    changing: (change) => change(),
  };
  return { answer, tail, drawn, streamed: new StreamedAnswer('a', tail, drawing) };
}

const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}\n\n`).join('');

describe('StreamedAnswer', () => {
  it('draws each finished block once, in order, in groups, and the growing tail after them', () => {
    const { answer, drawn, streamed } = setUp(0);
    streamed.update(paragraphs(30) + 'the ta');
    streamed.update(paragraphs(30) + 'the tail\n\nnext');
    expect(drawn).toEqual([...Array.from({ length: 30 }, (_, i) => `p${i}\n`), 'the tail\n']);
    const groups = answer.querySelectorAll(':scope > .blocks');
    expect(Array.from(groups, (g) => g.childElementCount)).toEqual([24, 7]);
    expect(answer.lastElementChild!.innerHTML).toBe('<i>next</i>');
  });

  it('spreads a burst over frames: no frame draws blocks for much longer than its budget', () => {
    const { drawn, streamed, tail } = setUp(3);
    streamed.update(paragraphs(40));
    // 8 ms of budget at 3 ms a block, batches of 1, 2, then 4: the first frame stops after the batch that
    // crossed the budget, and the tail waits behind the blocks still to draw.
    expect(drawn.length).toBe(3);
    expect(tail.innerHTML).toBe('');
    let frameCount = 1;
    while (frames.length > 0) {
      const before = clock;
      frames.shift()!();
      frameCount++;
      expect(clock - before).toBeLessThanOrEqual(8 + 4 * 3);
    }
    expect(drawn.length).toBe(40);
    expect(frameCount).toBeGreaterThan(4);
  });

  it('finishes only after the last block is drawn, and refuses a final text that is not the streamed one grown', () => {
    const { drawn, streamed } = setUp(3);
    streamed.update('p0\n\np1');
    const finished = vi.fn();
    expect(streamed.finish('other text', finished)).toBe(false);
    expect(streamed.finish(`p0\n\np1\n\n${paragraphs(20)}last`, finished)).toBe(true);
    expect(finished).not.toHaveBeenCalled();
    while (frames.length > 0) frames.shift()!();
    expect(drawn.length).toBe(22);
    expect(finished).toHaveBeenCalledOnce();
    expect(finished.mock.calls[0]![1]).toBe('last');
  });

  it('stops drawing once its answer is no longer on screen', () => {
    const { answer, drawn, streamed } = setUp(3);
    streamed.update(paragraphs(40));
    const before = drawn.length;
    answer.remove();
    while (frames.length > 0) frames.shift()!();
    expect(drawn.length).toBe(before);
    expect(streamed.attached).toBe(false);
  });
});
