// @vitest-environment jsdom
// The spend cap's card above the prompt box: today's spend against the cap, a free model first when one is
// offered, "Send anyway" for this prompt, "Change cap", and Close; each button does only its own thing.
import { describe, expect, it } from 'vitest';
import type { SpendCapNotice } from '../../src/shared/protocol.ts';
import { spendCapCard } from '../../src/webview/spendCapCard.ts';

function draw(notice: SpendCapNotice) {
  const did: string[] = [];
  const card = spendCapCard(notice, {
    s: (_key, fallback) => fallback,
    sendAnyway: () => did.push('send'),
    useFree: (free) => did.push(`free ${free.service}/${free.model}`),
    changeCap: () => did.push('cap'),
    dismiss: () => did.push('close'),
  });
  const buttons = [...card.querySelectorAll<HTMLButtonElement>('.error-buttons button')];
  return { card, did, buttons };
}

describe('the spend cap card', () => {
  it('says today’s spend and the cap, and leads with the free model', () => {
    const { card, did, buttons } = draw({
      spent: '$0.02',
      cap: '$0.01',
      free: { service: 'router', model: 'openrouter/free' },
    });
    expect(card.getAttribute('role')).toBe('alert');
    expect(card.textContent).toContain('Daily spend cap reached');
    expect(card.textContent).toContain('Spent today in this workspace: $0.02 · daily cap: $0.01');
    expect(card.textContent).toContain('Your prompt was not sent');
    expect(buttons.map((b) => [b.textContent, b.classList.contains('primary')])).toEqual([
      ['Use a free model', true],
      ['Send anyway', false],
      ['Change cap', false],
    ]);
    for (const b of buttons) b.click();
    card.querySelector<HTMLButtonElement>('.spend-cap-close')!.click();
    expect(did).toEqual(['free router/openrouter/free', 'send', 'cap', 'close']);
  });

  it('without a free model to offer, "Send anyway" leads', () => {
    const { buttons } = draw({ spent: '$1.00', cap: '$0.50' });
    expect(buttons.map((b) => [b.textContent, b.classList.contains('primary')])).toEqual([
      ['Send anyway', true],
      ['Change cap', false],
    ]);
  });
});
