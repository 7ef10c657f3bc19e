// The shapes that make a backtracking engine slow, refused in a team rule's regex by name: a repeat inside a repeat
// ((a+)+: exponential), a repeated alternation whose branches can start alike ((a|ab)*: exponential), and two
// repeats side by side that can take the same characters (\w+\w*: each split of a run tried, polynomial) unless
// both are small. What is left tries a bounded number of ways at each start (open repeats stop at OPEN_REPEAT), so
// a scan stays linear in the text. RE2 itself never needs this; JavaScript's RegExp backtracks.
import { type CharSet, OPEN_REPEAT, type RegexNode, TeamRegexError } from './teamRegex.ts';

/** Two side-by-side repeats over the same characters may try at most this many splits per start. */
const SPLIT_BUDGET = 4096;

type Repeat = Extract<RegexNode, { kind: 'repeat' }>;

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]![1] < b[j]![0]) i++;
    else if (b[j]![1] < a[i]![0]) j++;
    else return true;
  }
  return false;
}

function union(sets: CharSet[]): CharSet {
  const all = sets.flat().sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of all) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Whether the node can match the empty string. */
function nullable(node: RegexNode): boolean {
  switch (node.kind) {
    case 'set':
      return false;
    case 'assert':
      return true;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.items.some(nullable);
    case 'group':
      return nullable(node.item);
    case 'repeat':
      return node.min === 0 || nullable(node.item);
  }
}

/** Every character the node can match anywhere. */
function alphabet(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'set':
      return node.set;
    case 'assert':
      return [];
    case 'seq':
    case 'alt':
      return union(node.items.map(alphabet));
    case 'group':
    case 'repeat':
      return alphabet(node.item);
  }
}

/** The characters a match of the node can start with. */
function firsts(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'set':
      return node.set;
    case 'assert':
      return [];
    case 'alt':
      return union(node.items.map(firsts));
    case 'group':
    case 'repeat':
      return firsts(node.item);
    case 'seq': {
      const sets: CharSet[] = [];
      for (const item of node.items) {
        sets.push(firsts(item));
        if (!nullable(item)) break;
      }
      return union(sets);
    }
  }
}

/**
 * How many ways one match of the node can split the text it covers, at most: the product of its variable repeats'
 * counts (an open repeat counted up to OPEN_REPEAT), Infinity past any budget. 1: a fixed shape.
 */
function splits(node: RegexNode): number {
  switch (node.kind) {
    case 'set':
    case 'assert':
      return 1;
    case 'repeat': {
      const inner = splits(node.item);
      const each = node.max === node.min ? 1 : ways(node);
      return each * inner ** Math.min(node.max === Infinity ? OPEN_REPEAT : node.max, 64);
    }
    case 'group':
      return splits(node.item);
    case 'seq':
      return node.items.reduce((product, item) => product * splits(item), 1);
    case 'alt':
      // Branches that start alike under a repeat are refused on their own (checkRepeat): one branch takes the text.
      return Math.max(...node.items.map(splits));
  }
}

/** The alternations directly under a repeat (through groups and sequences, not through another repeat). */
function alternationsIn(node: RegexNode): Extract<RegexNode, { kind: 'alt' }>[] {
  if (node.kind === 'alt') return [node, ...node.items.flatMap(alternationsIn)];
  if (node.kind === 'group') return alternationsIn(node.item);
  if (node.kind === 'seq') return node.items.flatMap(alternationsIn);
  return [];
}

function checkRepeat(node: Repeat): void {
  if (node.max <= 1) return;
  // A fixed number of small variable parts ((?:-[0-9]{10,13}){3}: 4^3 ways) is bounded; an open one is not.
  const inner = splits(node.item);
  if (inner > 1 && (node.max === Infinity || inner ** node.max > SPLIT_BUDGET))
    throw new TeamRegexError(
      'a repeat inside a repeat (as in (a+)+) can backtrack exponentially; write the inner part with a fixed count or drop the outer repeat',
      node.at,
    );
  for (const alt of alternationsIn(node.item)) {
    const seen: CharSet[] = [];
    for (const branch of alt.items) {
      const first = firsts(branch);
      if (nullable(branch) || seen.some((s) => intersects(s, first)))
        throw new TeamRegexError(
          'a repeated alternation whose branches can start with the same character (as in (a|ab)*) can backtrack exponentially',
          node.at,
        );
      seen.push(first);
    }
  }
}

/** A group around a single repeat is that repeat, for checkSequence. */
function unwrapped(node: RegexNode): RegexNode {
  return node.kind === 'group' && (node.item.kind === 'repeat' || node.item.kind === 'group')
    ? unwrapped(node.item)
    : node;
}

function ways(r: Repeat): number {
  return (r.max === Infinity ? OPEN_REPEAT : r.max) - r.min + 1;
}

/** Two repeats over shared characters with only optional parts between them: each split of a run is tried. */
function checkSequence(items: readonly RegexNode[]): void {
  for (let i = 0; i < items.length; i++) {
    const first = items[i]!;
    if (first.kind !== 'repeat' || first.max === first.min) continue;
    for (let j = i + 1; j < items.length; j++) {
      const next = items[j]!;
      if (next.kind === 'repeat' && next.max !== next.min && intersects(alphabet(first), alphabet(next))) {
        if (ways(first) * ways(next) > SPLIT_BUDGET)
          throw new TeamRegexError(
            'two repeats side by side that can match the same characters (as in \\w+\\w*) backtrack polynomially; make one of them a fixed count or their characters distinct',
            next.at,
          );
      }
      if (!nullable(next)) break;
    }
  }
}

/** Throws a TeamRegexError naming the first construct that can make the match backtrack beyond a bounded amount. */
export function checkLinear(node: RegexNode): void {
  switch (node.kind) {
    case 'set':
    case 'assert':
      return;
    case 'repeat':
      checkRepeat(node);
      checkLinear(node.item);
      return;
    case 'group':
      checkLinear(node.item);
      return;
    case 'seq':
      checkSequence(node.items.map(unwrapped));
      node.items.forEach(checkLinear);
      return;
    case 'alt':
      node.items.forEach(checkLinear);
  }
}
