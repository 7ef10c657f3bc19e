// The guarded-prompt pipeline the chat, the language-model provider and `keyward ask` share: the prompt step sees only
// what the guard let through, and a hold on today's spend is settled with what was charged or released, never left.
import { describe, expect, it } from 'vitest';
import { recordOnly, runGuardedPrompt, unreadReason } from '../../../src/core/chat/guardedPrompt.ts';
import type { Reservation } from '../../../src/core/account/spendReservation.ts';

function watchedHold() {
  const seen: string[] = [];
  const hold: Reservation = {
    settle: (cost) => {
      seen.push(`settle ${String(cost)}`);
      return Promise.resolve();
    },
    release: () => void seen.push('release'),
  };
  return { hold, seen };
}

describe('runGuardedPrompt', () => {
  it('runs cap, guard, hold, prompt in that order and settles with the answer’s cost', async () => {
    const order: string[] = [];
    const { hold, seen } = watchedHold();
    const outcome = await runGuardedPrompt({
      heldBack: () => (order.push('cap'), false),
      guard: () => (order.push('guard'), Promise.resolve('redacted')),
      reserve: (g) => (order.push(`reserve ${g}`), hold),
      prompt: (g) => (order.push(`prompt ${g}`), Promise.resolve({ costUsd: 0.25 })),
    });
    expect(order).toEqual(['cap', 'guard', 'reserve redacted', 'prompt redacted']);
    expect(outcome).toEqual({ sent: true, result: { costUsd: 0.25 } });
    expect(seen).toEqual(['settle 0.25']);
  });

  it('sends nothing when the cap holds it back, and does not ask the guard', async () => {
    let asked = false;
    const outcome = await runGuardedPrompt({
      heldBack: () => true,
      guard: () => ((asked = true), Promise.resolve('x')),
      prompt: () => Promise.reject(new Error('sent')),
    });
    expect(outcome).toEqual({ sent: false, why: 'held_back' });
    expect(asked).toBe(false);
  });

  it('sends nothing and holds nothing when the guard says no', async () => {
    let reserved = false;
    const outcome = await runGuardedPrompt({
      guard: () => Promise.resolve(undefined),
      reserve: () => ((reserved = true), undefined),
      prompt: () => Promise.reject(new Error('sent')),
    });
    expect(outcome).toEqual({ sent: false, why: 'guarded' });
    expect(reserved).toBe(false);
  });

  it('a refused reservation sends nothing', async () => {
    const outcome = await runGuardedPrompt({
      guard: () => Promise.resolve('x'),
      reserve: () => 'refused',
      prompt: () => Promise.reject(new Error('sent')),
    });
    expect(outcome).toEqual({ sent: false, why: 'capped' });
  });

  it('a broken answer settles what the service reported, and one with nothing reported releases the hold', async () => {
    const charged = watchedHold();
    await expect(
      runGuardedPrompt({
        guard: () => Promise.resolve('x'),
        reserve: () => charged.hold,
        prompt: (_g, onReported) => {
          onReported({ usage: null, costUsd: 0.1 });
          return Promise.reject(new Error('broken'));
        },
      }),
    ).rejects.toThrow('broken');
    expect(charged.seen).toEqual(['settle 0.1']);
    const free = watchedHold();
    await expect(
      runGuardedPrompt({
        guard: () => Promise.resolve('x'),
        reserve: () => free.hold,
        prompt: () => Promise.reject(new Error('broken')),
      }),
    ).rejects.toThrow('broken');
    expect(free.seen).toEqual(['release']);
  });
});

describe('the pipeline’s helpers', () => {
  it('names each unread reason once', () => {
    expect(unreadReason({ unread: [] })).toBeUndefined();
    expect(unreadReason({ unread: [{ reason: 'locked' }, { reason: 'locked' }, { reason: 'gone' }] })).toBe(
      'locked; gone',
    );
  });

  it('a record-only hold records on settle and does nothing on release', async () => {
    const recorded: (number | null | undefined)[] = [];
    const hold = recordOnly((cost) => (recorded.push(cost), Promise.resolve()));
    hold.release();
    await hold.settle(0.5);
    expect(recorded).toEqual([0.5]);
  });
});
