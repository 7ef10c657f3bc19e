// @vitest-environment jsdom
// The service switch: short names on one line with the full name as tooltip and
// accessible name, toggle buttons that say which is pressed, one tab stop, arrows between.
import { describe, expect, it } from 'vitest';
import type { ServiceChoice } from '../../src/shared/protocol.ts';
import { drawServiceSwitch, markService, serviceSwitchKey } from '../../src/webview/serviceSwitch.ts';

const choice = (id: ServiceChoice['id'], name: string, shortName?: string): ServiceChoice => ({
  id,
  name,
  ...(shortName ? { shortName } : {}),
  pricedModels: false,
  hasCredits: false,
});

function drawn() {
  const group = document.createElement('div');
  document.body.replaceChildren(group);
  drawServiceSwitch(group, [
    choice('router', 'Routing service', 'Routing'),
    choice('direct', 'Direct service', 'Direct'),
    choice('compatible', 'Local LLM'),
  ]);
  const buttons = [...group.querySelectorAll('button')];
  return { group, buttons };
}

const key = (target: HTMLElement, k: string) => {
  const event = new KeyboardEvent('keydown', { key: k, bubbles: true });
  Object.defineProperty(event, 'target', { value: target });
  return event;
};

describe('service switch', () => {
  it('shows short names, keeps the full one as tooltip and accessible name, a given name as it is', () => {
    const { buttons } = drawn();
    expect(buttons.map((b) => b.textContent)).toEqual(['Routing', 'Direct', 'Local LLM']);
    expect(buttons.map((b) => b.title)).toEqual(['Routing service', 'Direct service', 'Local LLM']);
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Routing service',
      'Direct service',
      'Local LLM',
    ]);
    // The ids the real-host tests click.
    expect(buttons.map((b) => b.id)).toEqual(['service-router', 'service-direct', 'service-compatible']);
    expect(buttons.every((b) => b.type === 'button')).toBe(true);
  });

  it('marks the chosen service pressed, and only it takes a Tab stop', () => {
    const { group, buttons } = drawn();
    markService(group, 'direct');
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true', 'false']);
    expect(buttons.map((b) => b.tabIndex)).toEqual([-1, 0, -1]);
  });

  it('arrows, Home and End move the focus round the segments without choosing', () => {
    const { group, buttons } = drawn();
    markService(group, 'router');
    buttons[0]!.focus();
    expect(serviceSwitchKey(group, key(buttons[0]!, 'ArrowRight'))).toBe(true);
    expect(document.activeElement).toBe(buttons[1]);
    expect(serviceSwitchKey(group, key(buttons[1]!, 'End'))).toBe(true);
    expect(document.activeElement).toBe(buttons[2]);
    expect(serviceSwitchKey(group, key(buttons[2]!, 'ArrowRight'))).toBe(true);
    expect(document.activeElement).toBe(buttons[0]);
    expect(serviceSwitchKey(group, key(buttons[0]!, 'ArrowLeft'))).toBe(true);
    expect(document.activeElement).toBe(buttons[2]);
    expect(serviceSwitchKey(group, key(buttons[2]!, 'Enter'))).toBe(false);
    expect(buttons[0]!.getAttribute('aria-pressed')).toBe('true');
  });
});
