// What every split-key form shares (splitKeys.ts, continuedKeys.ts): the prefixes a first piece starts with, the
// result's shape, and the bounds that keep a flood of pieces cheap.
import { DIRECT_PREFIXES, OTHER_PREFIXES, ROUTER_PREFIX } from '../../shared/keyShapes.ts';

/** A literal piece starts with one of these: a prefix a provider documents, never "sk-" alone. */
export const PIECE_PREFIXES: readonly string[] = [
  ROUTER_PREFIX,
  ...DIRECT_PREFIXES.map((p) => `sk-${p}-`),
  'sk-ant-',
  ...OTHER_PREFIXES,
];

export interface Assembled {
  /** The text the pieces span (quotes, operators and all), end exclusive. */
  start: number;
  end: number;
  /** The joined key. */
  key: string;
}

/** Pieces joined at most (empty constants add none to the length that also bounds a join). */
export const MAX_PIECES = 16;
/**
 * Places a split key can start looked at per text: a file with more is a list of prefixes or generated, not a
 * hiding place, and a flood of them must not cost a scope search each (whole keys are still found).
 */
export const MAX_STARTS = 256;

/**
 * Indentation skipped after a backslash: TOML drops all of it ("line ending backslash", toml.io v1.0.0) and YAML the
 * continuation line's leading white space (YAML 1.2.2 §7.3.1, example 7.5); in a Python or shell string it stays in
 * the value, but the key's characters are in the file all the same. A line indented further holds no key piece.
 */
export const MAX_INDENT = 64;
