// The conversation list says how long ago each conversation was used (issue 21 item 14), as Copilot Chat's
// history list does, in the editor's language through Intl.RelativeTimeFormat.
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../../src/core/chat/relativeTime.ts';

const now = Date.UTC(2026, 10, 25, 12, 0, 0);
const minute = 60_000;

describe('relativeTime', () => {
  it('says the age in its largest whole unit', () => {
    expect(relativeTime(now - 20_000, now)).toBe('now');
    expect(relativeTime(now - 5 * minute, now)).toBe('5 min. ago');
    expect(relativeTime(now - 3 * 60 * minute, now)).toBe('3 hr. ago');
    expect(relativeTime(now - 24 * 60 * minute, now)).toBe('yesterday');
    expect(relativeTime(now - 15 * 24 * 60 * minute, now)).toBe('2 wk. ago');
    expect(relativeTime(now - 400 * 24 * 60 * minute, now)).toBe('last yr.');
  });

  it('never speaks of the future when a clock was set back, and survives an unknown locale', () => {
    expect(relativeTime(now + 10 * minute, now)).toBe('now');
    expect(relativeTime(now - 5 * minute, now, 'not a locale!')).toBe('5 min. ago');
    expect(relativeTime(now - 5 * minute, now, 'de')).toBe('vor 5 Min.');
  });
});
