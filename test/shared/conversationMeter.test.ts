// The meter's figures: the conversation's tokens (reported usage where there is one, counted after it), the
// window from the model list or none, and the cost reported, estimated from usage and prices, or unknown.
import { describe, expect, it } from 'vitest';
import { contextFigures, costFigures, draftTokens } from '../../src/shared/conversationMeter.ts';
import { conversationSummary } from '../../src/shared/conversationSummary.ts';
import type { ChatTurn, ModelOption } from '../../src/shared/protocol.ts';
import { modelTextTokens } from '../../src/shared/tokenCount.ts';

const turn = (fields: Partial<ChatTurn> & Pick<ChatTurn, 'id' | 'role'>): ChatTurn => ({
  text: '',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  status: 'done',
  ...fields,
});
const mini: ModelOption = {
  id: 'openai/gpt-4o-mini',
  name: 'GPT-4o-mini',
  free: false,
  inputPerMillion: 0.15,
  outputPerMillion: 0.6,
  contextLength: 128_000,
};
const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});

describe('the context figures', () => {
  const question = 'Why is the sky blue? Explain it to a child in three sentences.';
  const answer =
    'Sunlight has every colour in it. The air scatters blue light the most. So blue comes at you from all over.';

  it('counts every turn when nothing was reported, and the window from the model list', () => {
    const turns = [turn({ id: 'u', role: 'user', text: question }), turn({ id: 'a', role: 'assistant', text: answer })];
    const f = contextFigures(turns, mini.id, mini);
    expect(f).toEqual({
      conversation: 8 + modelTextTokens(question, mini.id) + modelTextTokens(answer, mini.id),
      draft: 0,
      window: 128_000,
      estimate: false,
    });
  });

  it('takes the last reported usage as everything up to that answer, and counts only what came after', () => {
    const turns = [
      turn({ id: 'u1', role: 'user', text: question }),
      turn({ id: 'a1', role: 'assistant', text: answer, usage: usage(1200, 300) }),
      turn({ id: 'u2', role: 'user', text: 'Shorter.' }),
      // A failed answer is not sent again, so it is not counted.
      turn({ id: 'a2', role: 'assistant', text: '', status: 'error' }),
    ];
    const f = contextFigures(turns, mini.id, mini, draftTokens('And at sunset?', [], mini.id));
    expect(f.conversation).toBe(1500 + 4 + modelTextTokens('Shorter.', mini.id));
    expect(f.draft).toBe(4 + modelTextTokens('And at sunset?', mini.id));
  });

  it('says "window unknown" (null) when the list gives none, and an estimate for a family with no known tokenizer', () => {
    const turns = [turn({ id: 'u', role: 'user', text: question, model: 'claude-sonnet-4' })];
    const f = contextFigures(turns, 'anthropic/claude-sonnet-4', { ...mini, id: 'x', contextLength: null });
    expect(f.window).toBeNull();
    expect(f.estimate).toBe(true);
    // All of it reported: nothing estimated, whatever the family.
    const reported = [...turns, turn({ id: 'a', role: 'assistant', usage: usage(10, 5) })];
    expect(contextFigures(reported, 'anthropic/claude-sonnet-4', undefined).estimate).toBe(false);
  });

  it('counts attached code with the prompt', () => {
    const attachment = { id: 'f', fileName: 'a.ts', languageId: 'ts', startLine: 1, endLine: 1, text: 'const a = 1;' };
    expect(draftTokens('Explain', [attachment], mini.id)).toBe(
      4 + modelTextTokens('Explain', mini.id) + 16 + modelTextTokens('const a = 1;', mini.id),
    );
    expect(draftTokens('  ', [], mini.id)).toBe(0);
  });
});

describe('the cost figures', () => {
  const models = { router: [mini, { ...mini, id: 'free/model:free', free: true }], direct: null, compatible: null };

  it('adds reported costs, every version of a regenerated answer included', () => {
    const older = turn({ id: 'a0', role: 'assistant', text: 'first', costUsd: 0.002 });
    const turns = [
      turn({ id: 'a1', role: 'assistant', text: 'x', costUsd: 0.001 }),
      turn({ id: 'a2', role: 'assistant', text: 'y', costUsd: 0.003, versions: [older], versionIndex: 1 }),
    ];
    expect(costFigures(turns, models)).toEqual({ usd: 0.006, estimated: false, unknown: 0 });
  });

  it('estimates from reported usage and the list’s prices where no cost was reported, and says so', () => {
    const turns = [turn({ id: 'a', role: 'assistant', text: 'x', usage: usage(1_000_000, 100_000) })];
    expect(costFigures(turns, models)).toEqual({ usd: 0.15 + 0.06, estimated: true, unknown: 0 });
  });

  it('counts an answer with no cost, no usage or no price as unknown, never as free; free models cost nothing', () => {
    const turns = [
      turn({ id: 'a1', role: 'assistant', text: 'x', service: 'direct', model: 'gpt-4o', usage: usage(10, 10) }),
      turn({ id: 'a2', role: 'assistant', text: 'y' }),
      turn({ id: 'a3', role: 'assistant', text: 'z', model: 'free/model:free' }),
      turn({ id: 'a4', role: 'assistant', text: '', status: 'error' }),
    ];
    expect(costFigures(turns, models)).toEqual({ usd: 0, estimated: false, unknown: 2 });
  });
});

describe('the summary a new conversation starts with', () => {
  const words = { heading: 'Summary:', asked: 'I asked:', answered: 'You answered:', leftOut: '({0} left out)' };

  it('keeps each exchange’s start, the newest fullest, within its token budget', () => {
    const turns: ChatTurn[] = [];
    for (let i = 0; i < 30; i++)
      turns.push(
        turn({ id: `u${i}`, role: 'user', text: `Question ${i}: ${'why '.repeat(200)}` }),
        turn({ id: `a${i}`, role: 'assistant', text: `Answer ${i}: ${'because '.repeat(400)}` }),
      );
    const summary = conversationSummary(turns, words, mini.id, 2000);
    expect(summary.startsWith('Summary:\n')).toBe(true);
    expect(modelTextTokens(summary, mini.id)).toBeLessThanOrEqual(2000 + 20);
    expect(summary).toMatch(/^\(\d+ left out\)$/m);
    expect(summary).toContain('- I asked: Question 29: why why');
    expect(summary).toContain('You answered: Answer 29: because');
    expect(summary).not.toContain('Question 0:');
    // The newest exchange keeps more than an older one.
    const lines = summary.split('\n');
    const newest = lines.find((l) => l.includes('Answer 29'))!;
    const older = lines.find((l) => l.includes('Answer 28'))!;
    expect(newest.length).toBeGreaterThan(older.length);
  });

  it('is empty for an empty conversation', () => {
    expect(conversationSummary([], words, mini.id, 2000)).toBe('');
  });
});
