// Where runs of key characters that start with a provider's prefix are in a text: "sk-" and the other providers'
// prefixes, each run measured once and bounded, so megabytes of "sk-sk-sk-" stay linear. The token rules
// (textHits.ts) classify each run; the continued forms (continuedKeys.ts) start at those that end a line.
import { OTHER_PREFIXES } from '../../shared/keyShapes.ts';
import { isKeyChar } from './keyChars.ts';
import { MAX_TOKEN } from './rules.ts';

/**
 * Calls `found` with each run of key characters that starts with `prefix`: one bounded
 * pass over the run, so megabytes of "sk-sk-sk-" stay linear.
 */
function tokensAfter(text: string, prefix: string, found: (start: number, end: number) => void): void {
  let pos = text.indexOf(prefix);
  while (pos !== -1) {
    const start = pos;
    let end = start + prefix.length;
    while (end < text.length && isKeyChar(text.charCodeAt(end)) && end - start <= MAX_TOKEN) end++;
    if (end - start > MAX_TOKEN) {
      // Far too long for a key: skip the whole run so adversarial input stays linear.
      while (end < text.length && isKeyChar(text.charCodeAt(end))) end++;
    } else found(start, end);
    pos = text.indexOf(prefix, end);
  }
}

/** The other providers' prefixes, by the character each ends with ("AIza": its "za"). */
const ENDING_IN: Record<'_' | '-' | 'za', readonly (typeof OTHER_PREFIXES)[number][]> = {
  _: OTHER_PREFIXES.filter((p) => p.endsWith('_')),
  '-': OTHER_PREFIXES.filter((p) => p.endsWith('-')),
  za: OTHER_PREFIXES.filter((p) => p.endsWith('za')),
};

/**
 * Where a prefix of another provider may end: its ending ("_", "-", "za") after the two characters the
 * prefix has before it ("gsk_": "sk"). One regular expression, which the engine compiles to native code:
 * a loop of `indexOf` over every "_" and "-" of the text cost an optimizing compile of its own (4-5 ms of
 * CPU in a scan of the bench's corpus) on top of its run, and most endings ("__esModule", "a - b") end no
 * prefix.
 */
const PREFIX_ENDS = new RegExp(
  (['_', '-', 'za'] as const)
    .filter((ending) => ENDING_IN[ending].length > 0)
    .map((ending) => {
      const priors = ENDING_IN[ending].map((p) => p.slice(p.length - ending.length - 2, p.length - ending.length));
      return `(?<=${[...new Set(priors)].join('|')})${ending}`;
    })
    .join('|'),
  'g',
);

/** The other providers' prefixes the text holds, in OTHER_PREFIXES' order. */
function otherPrefixesIn(text: string): (typeof OTHER_PREFIXES)[number][] {
  let found: Set<string> | undefined;
  PREFIX_ENDS.lastIndex = 0;
  for (let match = PREFIX_ENDS.exec(text); match !== null; match = PREFIX_ENDS.exec(text)) {
    const ending = match[0] as keyof typeof ENDING_IN;
    const end = match.index + ending.length;
    for (const prefix of ENDING_IN[ending])
      if (text.startsWith(prefix, end - prefix.length)) (found ??= new Set()).add(prefix);
  }
  return found ? OTHER_PREFIXES.filter((p) => found.has(p)) : [];
}

/** Calls `found` with each run of key characters that starts with "sk-" or another provider's prefix. */
export function prefixedRuns(text: string, found: (start: number, end: number) => void): void {
  tokensAfter(text, 'sk-', found);
  for (const prefix of otherPrefixesIn(text)) tokensAfter(text, prefix, found);
}

/** A line break at `at`, or a backslash that ends the line there: where a run may go on on the next line. */
export function endsLine(text: string, at: number): boolean {
  const next = text.charCodeAt(at) === 92 ? at + 1 : at;
  const code = text.charCodeAt(next);
  return code === 10 || (code === 13 && text.charCodeAt(next + 1) === 10);
}
