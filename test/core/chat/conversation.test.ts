import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../src/shared/protocol.ts';
import {
  conversationMarkdown,
  lastResponseId,
  promptTurns,
  splitAtAnswer,
  splitAtEdit,
} from '../../../src/core/chat/conversation.ts';

const turn = (t: Partial<ChatTurn> & Pick<ChatTurn, 'role' | 'text'>): ChatTurn => ({
  id: 'x',
  service: 'router',
  model: 'm',
  status: 'done',
  ...t,
});

const attachment = { id: 'a', fileName: 'a.ts', languageId: 'ts', startLine: 1, endLine: 2, text: 'let a;' };

describe('conversation', () => {
  const history: ChatTurn[] = [
    turn({ role: 'user', text: 'q1', attachments: [attachment] }),
    turn({ role: 'assistant', text: 'a1' }),
    turn({ role: 'user', text: 'q2' }),
    turn({ role: 'assistant', text: '', status: 'error' }),
    turn({ role: 'user', text: 'qd', service: 'direct' }),
    turn({ role: 'assistant', text: 'ad', service: 'direct', responseId: 'resp_1' }),
    turn({ role: 'user', text: 'q3' }),
    turn({ role: 'assistant', text: 'half', status: 'interrupted' }),
    turn({ role: 'assistant', text: '', refusal: 'no' }),
  ];

  it('sends every turn that ended with an answer, whichever service gave it, then the new prompt with its code', () => {
    expect(promptTurns(history, 'now', [])).toEqual([
      { role: 'user', content: 'q1\n\nFile a.ts (ts), lines 1-2:\n```ts\nlet a;\n```' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'user', content: 'qd' },
      { role: 'assistant', content: 'ad' },
      { role: 'user', content: 'q3' },
      { role: 'assistant', content: 'half' },
      { role: 'assistant', content: 'no' },
      { role: 'user', content: 'now' },
    ]);
  });

  it('continues the direct service from its stored response only while that is the last turn', () => {
    expect(lastResponseId(history.slice(0, 6))).toBe('resp_1');
    // After a routing-service turn the direct service must see it: no shortcut through its own response.
    expect(lastResponseId(history)).toBeUndefined();
    expect(lastResponseId(history.slice(0, 4))).toBeUndefined();
  });

  it('exports Markdown with the ending notes in the words given', () => {
    const text = conversationMarkdown(
      [
        turn({ role: 'user', text: 'q' }),
        turn({
          role: 'assistant',
          text: 'a',
          finishReason: 'length',
          usage: { inputTokens: 291, outputTokens: 40, totalTokens: 331 },
          costUsd: 0.000123,
        }),
        turn({ role: 'assistant', text: '', refusal: 'nope' }),
        turn({
          role: 'assistant',
          text: 'p',
          status: 'error',
          error: { kind: 'network', status: null, code: null, message: 'down', action: '', retryAfterSeconds: null },
        }),
      ],
      { declined: 'DECLINED', cutOff: 'CUT', filtered: 'FILTERED', tokens: 'IN {0} OUT {1}', cost: 'COST {0}' },
    );
    expect(text).toBe(
      [
        '# Keyward conversation',
        '',
        '## You (router, m)',
        '',
        'q',
        '',
        '## m',
        '',
        'a',
        '',
        '_CUT_',
        '',
        '_IN 291 OUT 40 · COST $0.000123_',
        '',
        '## m',
        '',
        '',
        '',
        '> DECLINED: nope',
        '',
        '## m (error)',
        '',
        'p',
        '',
        '> network: down',
        '',
      ].join('\n'),
    );
  });
});

// Issue 21: editing a sent message and sending it again continues from the edited message, as Copilot Chat does.
describe('Edit-and-resend', () => {
  const direct = (t: Partial<ChatTurn> & Pick<ChatTurn, 'role' | 'text' | 'id'>) => turn({ service: 'direct', ...t });
  const turns: ChatTurn[] = [
    direct({ id: 'u1', role: 'user', text: 'q1' }),
    direct({ id: 'a1', role: 'assistant', text: 'a1', responseId: 'resp_1' }),
    direct({ id: 'u2', role: 'user', text: 'q2' }),
    direct({ id: 'a2', role: 'assistant', text: 'a2', responseId: 'resp_2' }),
    direct({ id: 'u3', role: 'user', text: 'q3' }),
    direct({ id: 'a3', role: 'assistant', text: 'a3', responseId: 'resp_3' }),
  ];

  it('keeps what came before the edited message and names what it replaces', () => {
    const split = splitAtEdit(turns, 'u2')!;
    expect(split.kept.map((t) => t.id)).toEqual(['u1', 'a1']);
    expect(split.replaced.map((t) => t.id)).toEqual(['u2', 'a2', 'u3', 'a3']);
  });

  it('restarts the response chain from the answer before the edited message, not from the last one', () => {
    expect(lastResponseId(turns)).toBe('resp_3');
    expect(lastResponseId(splitAtEdit(turns, 'u2')!.kept)).toBe('resp_1');
    // The first message edited: no chain, the visible history (none) goes.
    expect(lastResponseId(splitAtEdit(turns, 'u1')!.kept)).toBeUndefined();
    // What the service receives: the kept turns and the edited prompt, nothing of the replaced tail.
    expect(promptTurns(splitAtEdit(turns, 'u2')!.kept, 'q2 edited', [])).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2 edited' },
    ]);
  });

  it('splits only at a user turn it knows', () => {
    expect(splitAtEdit(turns, 'a2')).toBeUndefined();
    expect(splitAtEdit(turns, 'gone')).toBeUndefined();
  });
});

// Issue 31 item 4: Regenerate sent the prompt again after the old answer (8 turns became 10, 291 input tokens 389).
describe('Regenerate', () => {
  const turns: ChatTurn[] = [
    turn({ id: 'u1', role: 'user', text: 'q1', attachments: [attachment] }),
    turn({ id: 'a1', role: 'assistant', text: 'a1' }),
    turn({ id: 'u2', role: 'user', text: 'q2' }),
    turn({ id: 'a2', role: 'assistant', text: 'a2' }),
  ];

  it('sends what produced the answer: the turns before its prompt, then the prompt, and not the old answer', () => {
    const first = promptTurns(turns.slice(0, 2), 'q2', []);
    const again = splitAtAnswer(turns, 'a2')!;
    expect(promptTurns(again.before, again.prompt.text, again.prompt.attachments ?? [])).toEqual(first);
    expect(again.answer.id).toBe('a2');
    expect(again.after).toEqual([]);
    // An answer in the middle: the turns after it stay where they are.
    const middle = splitAtAnswer(turns, 'a1')!;
    expect(promptTurns(middle.before, middle.prompt.text, middle.prompt.attachments ?? [])).toEqual([
      { role: 'user', content: 'q1\n\nFile a.ts (ts), lines 1-2:\n```ts\nlet a;\n```' },
    ]);
    expect(middle.after.map((t) => t.id)).toEqual(['u2', 'a2']);
  });

  it('finds only an answer right after its prompt', () => {
    expect(splitAtAnswer(turns, 'u2')).toBeUndefined();
    expect(splitAtAnswer(turns, 'gone')).toBeUndefined();
    expect(splitAtAnswer([...turns, turn({ id: 'a3', role: 'assistant', text: 'x' })], 'a3')).toBeUndefined();
  });
});
