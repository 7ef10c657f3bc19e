import { describe, expect, it } from 'vitest';
import { type KeyPress, composerIntent, lastPrompt } from '../../src/webview/composerKeys.ts';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  ...extra,
});
const idle = { enterSends: true, streaming: false, empty: false };

describe('the prompt box keyboard', () => {
  it('Enter sends and Shift+Enter breaks the line', () => {
    expect(composerIntent(press('Enter'), idle)).toBe('send');
    expect(composerIntent(press('Enter', { shiftKey: true }), idle)).toBe('none');
  });

  it('the setting flips them; Ctrl/Cmd+Enter sends either way', () => {
    const flipped = { ...idle, enterSends: false };
    expect(composerIntent(press('Enter'), flipped)).toBe('none');
    expect(composerIntent(press('Enter', { shiftKey: true }), flipped)).toBe('send');
    for (const context of [idle, flipped]) {
      expect(composerIntent(press('Enter', { ctrlKey: true }), context)).toBe('send');
      expect(composerIntent(press('Enter', { metaKey: true }), context)).toBe('send');
    }
  });

  it('an IME confirming a word with Enter never sends', () => {
    expect(composerIntent(press('Enter', { isComposing: true }), idle)).toBe('none');
  });

  it('Escape stops a streaming answer and does nothing otherwise', () => {
    expect(composerIntent(press('Escape'), { ...idle, streaming: true })).toBe('stop');
    expect(composerIntent(press('Escape'), idle)).toBe('none');
  });

  it('Up recalls the last prompt only in an empty box', () => {
    expect(composerIntent(press('ArrowUp'), { ...idle, empty: true })).toBe('recall');
    expect(composerIntent(press('ArrowUp'), idle)).toBe('none');
    expect(composerIntent(press('ArrowUp', { shiftKey: true }), { ...idle, empty: true })).toBe('none');
  });

  it('the recalled prompt is the last one sent', () => {
    const turns = [
      { role: 'user', text: 'first' },
      { role: 'assistant', text: 'a' },
      { role: 'user', text: 'second' },
      { role: 'assistant', text: 'b' },
    ];
    expect(lastPrompt(turns)).toBe('second');
    expect(lastPrompt([])).toBeUndefined();
  });
});
