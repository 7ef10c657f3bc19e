// What the panel says around an answer: how it ended, its footer, the reset of
// a used-up free day, and what a restricted key lacks.
import { describe, expect, it, vi } from 'vitest';
import type { ChatTurn } from '../../src/shared/protocol.ts';
import { finishNote, metaLine, missingScopes, resetText } from '../../src/webview/turnNotes.ts';

const s = (_key: string, fallback: string) => fallback;
const turn = (extra: Partial<ChatTurn>): ChatTurn => ({
  id: 'a',
  role: 'assistant',
  text: 'Some words',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  status: 'done',
  ...extra,
});
const error = (kind: 'free_limit_day' | 'permission', message = 'm', code: string | null = null) => ({
  kind,
  status: 429,
  code,
  message,
  action: 'a',
  retryAfterSeconds: 3600,
});

describe('how an answer ended', () => {
  it('a cut-off answer and a filtered one say so; an ordinary one and a refusal do not need to', () => {
    expect(finishNote(turn({ finishReason: 'length' }), s)).toEqual({
      kind: 'length',
      text: 'Cut off at the token limit.',
    });
    expect(finishNote(turn({ finishReason: 'content_filter' }), s)).toMatchObject({
      kind: 'content_filter',
      text: expect.stringMatching(/^Filtered by the provider: the rest/),
    });
    expect(finishNote(turn({ finishReason: 'content_filter', text: '' }), s)?.text).toMatch(
      /withheld the whole answer/,
    );
    expect(finishNote(turn({ finishReason: 'stop' }), s)).toBeNull();
    expect(finishNote(turn({ finishReason: 'stop', text: '', refusal: 'No.' }), s)).toBeNull();
  });
});

describe('the footer', () => {
  it('a stopped or broken answer shows the tokens and cost the service reported', () => {
    expect(
      metaLine(
        turn({ status: 'cancelled', usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 }, costUsd: 0.000012 }),
        s,
      ),
    ).toBe('openai/gpt-4o-mini · 9 + 3 tokens · $0.000012');
    expect(
      metaLine(turn({ status: 'interrupted', usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } }), s),
    ).toBe('openai/gpt-4o-mini · 9 + 3 tokens');
    expect(metaLine(turn({ status: 'cancelled' }), s)).toBeNull();
    expect(metaLine(turn({ status: 'streaming' }), s)).toBeNull();
  });

  it('never shows more free requests than the day allows', () => {
    expect(metaLine(turn({ free: { used: 1001, limit: 1000 } }), s)).toBe('openai/gpt-4o-mini · free today 1000/1000');
  });
});

describe('the reset of a used-up free day', () => {
  it('is the moment recorded with the error, the same on every redraw', () => {
    vi.useFakeTimers();
    try {
      const failed = turn({ status: 'error', error: error('free_limit_day'), retryAt: '2026-11-22T00:00:00.000Z' });
      const iso = (d: Date) => d.toISOString();
      vi.setSystemTime(Date.parse('2026-11-21T20:00:00Z'));
      const first = resetText(failed, s, iso);
      vi.setSystemTime(Date.parse('2026-11-21T23:00:00Z'));
      expect(resetText(failed, s, iso)).toBe(first);
      expect(first).toBe('The free allowance resets at 2026-11-22T00:00:00.000Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a turn saved without the moment says 00:00 UTC, not a time made up from now', () => {
    expect(resetText(turn({ status: 'error', error: error('free_limit_day') }), s)).toBe(
      'The free allowance resets at 00:00 UTC.',
    );
  });
});

describe('a restricted key on the error card', () => {
  it('lists every scope the message names, with what it allows', () => {
    const message =
      "You have insufficient permissions for this operation. Missing scopes: api.responses.write. Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Member, Owner), and if you're using a restricted API key, that it has the necessary scopes.";
    expect(
      missingScopes(turn({ status: 'error', error: error('permission', message) }), (key, fallback) =>
        key === 'scope.api.responses.write' ? 'create responses (send prompts)' : fallback,
      ),
    ).toEqual([{ scope: 'api.responses.write', meaning: 'create responses (send prompts)' }]);
    expect(
      missingScopes(turn({ status: 'error', error: error('permission', 'Forbidden', 'api.model.read') }), s).map(
        (m) => m.scope,
      ),
    ).toEqual(['api.model.read']);
    expect(missingScopes(turn({ status: 'error', error: error('permission', 'Forbidden', '403') }), s)).toEqual([]);
  });
});
