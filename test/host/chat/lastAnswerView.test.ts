// What "Show Last Answer in Accessible View" opens: the last answer with text, past a failed or empty one.
import { describe, expect, it } from 'vitest';
import { lastAnswer } from '../../../src/host/chat/lastAnswerView.ts';
import type { ChatTurn } from '../../../src/shared/protocol.ts';

const turn = (id: string, role: ChatTurn['role'], text: string, status: ChatTurn['status'] = 'done'): ChatTurn => ({
  id,
  role,
  text,
  status,
  service: 'router',
  model: 'openrouter/free',
});

describe('the last answer', () => {
  it('is the newest answer that has text', () => {
    const turns = [turn('u1', 'user', 'a'), turn('a1', 'assistant', 'first'), turn('u2', 'user', 'b')];
    expect(lastAnswer(turns)?.id).toBe('a1');
    expect(lastAnswer([...turns, turn('a2', 'assistant', '', 'error')])?.id).toBe('a1');
    expect(lastAnswer([...turns, turn('a3', 'assistant', 'second', 'interrupted')])?.id).toBe('a3');
    expect(lastAnswer([turn('u1', 'user', 'a')])).toBeUndefined();
  });
});
