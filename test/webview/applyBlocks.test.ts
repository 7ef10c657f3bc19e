// @vitest-environment jsdom
// Issue 31 item 3: keeping one block marked "Kept in demo.js." on two other blocks with the same code (an earlier
// answer, a regenerated one). An Apply's state belongs to the block that was applied (its answer and its place in
// it), not to its text. The real page and the real webview script, driven by the host's messages and by clicks.
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebviewMessage } from '../../src/shared/protocol.ts';
import { $$, openPanelPage, posted, send, turn, withRouterKey } from './panelPage.ts';

const CODE =
  'Here is code:\n\n```js\nconsole.log("keyward");\n```\n\nAnd again:\n\n```js\nconsole.log("keyward");\n```\n';

function answer(n: number): void {
  const user = turn({ id: `u${n}`, role: 'user', text: `question ${n}` });
  const assistant = turn({ id: `a${n}`, role: 'assistant', status: 'streaming' });
  send({ type: 'chat/started', requestId: `r${n}`, user, assistant });
  send({ type: 'chat/chunk', requestId: `r${n}`, text: CODE });
  send({ type: 'chat/done', requestId: `r${n}`, turn: { ...assistant, status: 'done', text: CODE } });
}

/** The status line under each code block on the page, in order ('' for none). */
const lines = () => $$('.code-block').map((b) => b.querySelector('.apply-status')?.textContent ?? '');

beforeAll(async () => {
  await openPanelPage();
  send({ type: 'panel/state', state: withRouterKey() });
});

describe('an Apply belongs to its block', () => {
  it('keeping the second block of one answer marks that block only, not its twins here and in another answer', () => {
    answer(1);
    answer(2);
    expect($$('.code-block')).toHaveLength(4);
    const apply = $$('[data-turn-id="a2"] .code-block')[1]!.querySelector<HTMLButtonElement>(
      'button[aria-label^="Apply"]',
    )!;
    apply.click();
    const sent = posted.filter((m) => m.type === 'code/apply').at(-1) as Extract<
      WebviewMessage,
      { type: 'code/apply' }
    >;
    expect(sent.turnId).toBe('a2');
    send({ type: 'code/applyState', applyId: sent.applyId!, state: 'pending', file: 'demo.js' });
    expect(lines().map((l) => l.startsWith('Applied to demo.js'))).toEqual([false, false, false, true]);
    send({ type: 'code/applyState', applyId: sent.applyId!, state: 'kept', file: 'demo.js' });
    expect(lines()).toEqual(['', '', '', 'Kept in demo.js.']);
  });

  it('a new answer with the same code, and a redraw of the conversation, leave the other blocks unmarked', () => {
    answer(3);
    expect(lines()).toEqual(['', '', '', 'Kept in demo.js.', '', '']);
    // The whole conversation drawn again (a reload of the panel's state): the state stays with its block.
    const turns = ['1', '2', '3'].flatMap((n) => [
      turn({ id: `u${n}`, role: 'user', text: `question ${n}` }),
      turn({ id: `a${n}`, role: 'assistant', text: CODE }),
    ]);
    send({ type: 'panel/state', state: withRouterKey({ turns }) });
    expect(lines()).toEqual(['', '', '', 'Kept in demo.js.', '', '']);
  });
});
