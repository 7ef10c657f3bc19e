// @vitest-environment jsdom
// The parts of an answer drawn in the DOM: the code block bar and the error card.
import { describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../src/shared/errorKinds.ts';
import type { ChatTurn, WebviewMessage } from '../../src/shared/protocol.ts';
import { decorateCodeBlocks } from '../../src/webview/codeBlocks.ts';
import { errorCard } from '../../src/webview/errorCard.ts';
import { createRenderer } from '../../src/webview/markdown.ts';
import { untilText } from '../../src/webview/turnNotes.ts';

const s = (key: string, fallback: string) => (key === 'kind.network' ? 'Network error' : fallback);

function failed(kind: ErrorKind, extra: Partial<ChatTurn> = {}): ChatTurn {
  return {
    id: 'a1',
    role: 'assistant',
    text: '',
    service: 'router',
    model: 'meta-llama/llama-3.3-70b-instruct:free',
    status: 'error',
    error: {
      kind,
      status: 429,
      code: null,
      message: 'What the service said.',
      action: 'What to do.',
      retryAfterSeconds: null,
    },
    ...extra,
  };
}

describe('code blocks in an answer', () => {
  it('get a bar with the language and Copy, Insert, Replace and Apply, each posting the code', () => {
    const posted: WebviewMessage[] = [];
    const body = document.createElement('div');
    body.innerHTML = createRenderer()('Here:\n\n```python\nprint("hi")\n```\n');
    decorateCodeBlocks(body, s, (m) => posted.push(m));
    decorateCodeBlocks(body, s, (m) => posted.push(m));
    expect(body.querySelectorAll('.code-block')).toHaveLength(1);
    expect(body.querySelector('.code-lang')!.textContent).toBe('python');
    expect(body.querySelector('.code-block pre .hljs-built_in')?.textContent).toBe('print');
    const buttons = Array.from(body.querySelectorAll<HTMLButtonElement>('.code-tools button'));
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Copy',
      'Insert at cursor',
      'Replace selection',
      'Apply to its file (then Keep or Undo)',
    ]);
    for (const b of buttons) b.click();
    expect(posted).toEqual([
      { type: 'code/copy', code: 'print("hi")\n' },
      { type: 'code/insert', code: 'print("hi")\n', mode: 'cursor' },
      { type: 'code/insert', code: 'print("hi")\n', mode: 'replace' },
      { type: 'code/apply', code: 'print("hi")\n', languageId: 'python' },
    ]);
  });
});

describe('the error card', () => {
  const hooks = (resent: string[]) => ({
    s,
    post: () => undefined,
    resend: (_turn: ChatTurn, model: string) => resent.push(model),
    lockIcon: () => document.createElement('span'),
    hasCredits: (service: string) => service === 'router',
  });

  it('has a human title and Retry where a retry can help', () => {
    const resent: string[] = [];
    const card = errorCard(failed('network', { model: 'openai/gpt-4o-mini' }), hooks(resent));
    expect(card.querySelector('.error-kind')!.textContent).toBe('Network error');
    const retry = card.querySelector<HTMLButtonElement>('.retry-button')!;
    expect(retry.textContent).toBe('Retry');
    retry.click();
    expect(resent).toEqual(['openai/gpt-4o-mini']);
  });

  it('says the service text and the remedy once each (issue 21: the card said both twice)', () => {
    const card = (message: string, action: string) => {
      const base = failed('network');
      return errorCard({ ...base, error: { ...base.error!, message, action } }, hooks([])).textContent ?? '';
    };
    const count = (text: string, part: string) => text.split(part).length - 1;
    // The service's text that already holds the remedy: the remedy is not said again under it.
    const withRemedy = card(
      'The connection dropped. Check the network and try again.',
      'Check the network and try again.',
    );
    expect(count(withRemedy, 'Check the network and try again')).toBe(1);
    // A message that is only the title again is not repeated under the title.
    expect(count(card('Network error', 'Check the network.'), 'Network error')).toBe(1);
    // Different texts both stay.
    const both = card('What the service said.', 'What to do.');
    expect(both).toContain('What the service said.');
    expect(both).toContain('What to do.');
  });

  it('offers no Retry where the person must change something first', () => {
    for (const kind of ['auth', 'insufficient_credits', 'free_limit_day', 'bad_request'] as const)
      expect(errorCard(failed(kind), hooks([])).querySelector('.retry-button')).toBeNull();
  });

  it('says when the daily free allowance comes back, in local time and "in 3 h"', () => {
    const now = Date.parse('2026-11-23T21:00:00Z');
    const turn = failed('free_limit_day', { retryAt: '2026-11-24T00:00:00.000Z' });
    const card = errorCard(turn, { ...hooks([]), now });
    expect(card.querySelector('.error-reset')!.textContent).toMatch(/^The free allowance resets at .+ \(in 3 h\)$/);
    expect(card.querySelector('button.primary')!.textContent).toBe(
      'Resend to the paid model meta-llama/llama-3.3-70b-instruct',
    );
  });

  it('counts down in words a person uses', () => {
    expect(untilText(40_000, 0, s)).toBe('in 40 s');
    expect(untilText(25 * 60_000, 0, s)).toBe('in 25 min');
    expect(untilText(3 * 3_600_000, 0, s)).toBe('in 3 h');
    expect(untilText(3 * 86_400_000, 0, s)).toBe('in 3 d');
  });
});
