// "5 min ago" for the conversation list: a person scans recent work by age, as
// Copilot Chat's and Continue's history lists show it, not by a full timestamp.
// Intl.RelativeTimeFormat gives the words in the editor's language.

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** How long ago `then` was, in the largest whole unit: "now", "5 min. ago", "yesterday", "3 wk. ago". */
export function relativeTime(then: number, now: number, locale = 'en'): string {
  let format: Intl.RelativeTimeFormat;
  try {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  } catch {
    format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
  }
  // A clock set back (or a store from another machine) must not say "in 5 min."
  const age = Math.max(0, now - then);
  for (const [unit, size] of UNITS) {
    if (age >= size) return format.format(-Math.floor(age / size), unit);
  }
  return format.format(0, 'second');
}
