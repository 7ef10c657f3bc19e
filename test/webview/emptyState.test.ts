// @vitest-environment jsdom
// The empty chat's key rows: one per service the host offers, by the names it gives.
import { describe, expect, it } from 'vitest';
import type { ServiceChoice } from '../../src/shared/protocol.ts';
import { perService } from '../../src/shared/serviceIds.ts';
import { emptyState } from '../../src/webview/emptyState.ts';

const choice = (id: ServiceChoice['id'], name: string, extra: Partial<ServiceChoice> = {}): ServiceChoice => ({
  id,
  name,
  pricedModels: false,
  hasCredits: false,
  ...extra,
});

function draw(services: ServiceChoice[], hasKey: Record<ServiceChoice['id'], boolean>) {
  const ran: string[] = [];
  const root = emptyState({
    services,
    hasKey,
    s: (_key, fallback) => fallback,
    run: (action, service) => ran.push(`${action}:${service}`),
    tryFree: () => undefined,
  });
  const rows = [...root.querySelectorAll<HTMLElement>('.empty-key')].map((row) => ({
    service: row.dataset.service,
    text: row.textContent,
    setKey: row.querySelector('button'),
  }));
  return { root, rows, ran };
}

describe('the empty state', () => {
  it('names each offered service and offers Set key only where a needed key is missing', () => {
    const { rows, ran } = draw(
      [
        choice('router', 'Routing service'),
        choice('direct', 'Direct service'),
        choice('compatible', 'Local LLM', { keyOptional: true }),
      ],
      { ...perService(() => false), router: true, compatible: true },
    );
    expect(rows.map((r) => r.service)).toEqual(['router', 'direct', 'compatible']);
    expect(rows[0]!.text).toContain('key stored');
    expect(rows[1]!.text).toContain('no key yet');
    // A local server needs no key: it is not called "stored" when none was given.
    expect(rows[2]!.text).toContain('Local LLM');
    expect(rows[2]!.text).toContain('key optional');
    expect(rows[2]!.text).not.toContain('key stored');
    expect(rows[0]!.setKey).toBeNull();
    expect(rows[2]!.setKey).toBeNull();
    rows[1]!.setKey!.click();
    expect(ran).toEqual(['setKey:direct']);
  });

  it('offers Sign in beside Set key for a service that signs in in the browser, while its key is missing', () => {
    const services = [choice('router', 'Routing service', { signIn: true }), choice('direct', 'Direct service')];
    const none = draw(
      services,
      perService(() => false),
    );
    const buttons = (row: number) =>
      [...none.root.querySelectorAll('.empty-key')[row]!.querySelectorAll('button')].map((b) => b.textContent);
    expect(buttons(0)).toEqual(['Sign in', 'Set key']);
    expect(buttons(1)).toEqual(['Set key']);
    none.root.querySelector<HTMLButtonElement>('.empty-key button')!.click();
    expect(none.ran).toEqual(['signIn:router']);
    const stored = draw(services, { ...perService(() => false), router: true });
    expect(stored.root.querySelector('.empty-key[data-service="router"] button')).toBeNull();
  });

  it('offers the import only while a needed key is missing', () => {
    const optional = choice('compatible', 'Local LLM', { keyOptional: true });
    const all = draw([choice('router', 'Routing service'), optional], {
      ...perService(() => false),
      router: true,
      direct: true,
      compatible: false,
    });
    expect(all.root.querySelector('.empty-import')).toBeNull();
    const missing = draw([choice('router', 'Routing service'), optional], {
      ...perService(() => false),
      router: false,
      direct: true,
      compatible: false,
    });
    expect(missing.root.querySelector('.empty-import')).not.toBeNull();
  });

  it("makes the import the empty chat's first button, the primary one", () => {
    const { root } = draw([choice('router', 'Routing service'), choice('direct', 'Direct service')], {
      ...perService(() => false),
      router: false,
      direct: false,
      compatible: false,
    });
    const first = root.querySelector('button')!;
    expect(first.closest('.empty-import')).not.toBeNull();
    expect(first.className).toBe('primary');
  });

  it('offers a free model on the service the host says has one, once its key is stored', () => {
    // The host names the free model (ServiceChoice.freeModel, from the service's module): the webview knows no id.
    const free = choice('router', 'Routing service', { freeModel: 'free/model' });
    const tryFree = (hasKey: boolean) =>
      draw([choice('direct', 'Direct service'), free], {
        router: hasKey,
        direct: true,
        compatible: false,
      }).root.querySelector<HTMLButtonElement>('#try-free')!;
    expect(tryFree(true).disabled).toBe(false);
    expect(tryFree(false).disabled).toBe(true);
    const none = draw([choice('direct', 'Direct service')], {
      ...perService(() => false),
      router: true,
      direct: true,
      compatible: false,
    });
    expect(none.root.querySelector<HTMLButtonElement>('#try-free')!.disabled).toBe(true);
  });
});
