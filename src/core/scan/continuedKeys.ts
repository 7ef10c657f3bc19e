// Keys broken over lines inside one value, where no quote or operator separates the pieces (issue 35 §3):
// a line-ending backslash that continues the value on the next line (a Python or shell double-quoted string, a
// shell word, a TOML multi-line basic string, a YAML double-quoted scalar's escaped line break), and a key
// hard-wrapped in a Markdown paragraph (the line break alone, nothing else, between its characters). As for the
// other split forms, only a run that starts with a documented prefix and ends at a line's end starts a look, and the
// joined text must be a whole key of a known shape, so a prefix followed by prose or a list of prefixes makes none.
import { boundaryBefore, isKeyChar } from './keyChars.ts';
import { endsLine, prefixedRuns } from './prefixedRuns.ts';
import { MAX_TOKEN } from './rules.ts';
import { type Assembled, MAX_INDENT, MAX_PIECES, MAX_STARTS, PIECE_PREFIXES } from './splitPieces.ts';

/** Where the next piece starts after a line end at `at` (a backslash, or the line break itself), or -1. */
function nextLineStart(text: string, at: number): number {
  const escaped = text[at] === '\\';
  let next = escaped ? at + 1 : at;
  if (text[next] === '\r') next++;
  if (text[next] !== '\n') return -1;
  next++;
  // Hard-wrapped prose has nothing between the two parts of the key; a continued value may be indented.
  if (escaped)
    for (const from = next; next - from <= MAX_INDENT && (text[next] === ' ' || text[next] === '\t');) next++;
  return next;
}

/** The key continued from the run `start`..`end` over the lines after it, if the pieces join into one. */
function continued(
  text: string,
  start: number,
  end: number,
  isKey: (joined: string) => boolean,
): Assembled | undefined {
  // A first line that is a key already is looked past too: a direct key wrapped after its infix leaves a loose key
  // on the first line, and the joined key replaces it only where it is a key of a stricter shape (textHits.ts).
  let joined = text.slice(start, end);
  let at = end;
  for (let pieces = 1; pieces < MAX_PIECES; pieces++) {
    const from = nextLineStart(text, at);
    if (from === -1) return undefined;
    let to = from;
    while (to < text.length && isKeyChar(text.charCodeAt(to)) && joined.length + to - from <= MAX_TOKEN) to++;
    if (to === from || joined.length + to - from > MAX_TOKEN) return undefined;
    joined += text.slice(from, to);
    if (isKey(joined)) return { start, end: to, key: joined };
    at = to;
  }
  return undefined;
}

/**
 * Keys continued over lines in `text`, from the prefixed runs that end a line (`lineEnds`: start, end pairs, in
 * order; prefixedRuns.ts finds them in the token pass, so this form costs no pass of its own over the text).
 */
export function continuedKeys(
  text: string,
  isKey: (joined: string) => boolean,
  lineEnds: readonly number[],
): Assembled[] {
  const found: Assembled[] = [];
  let starts = 0;
  for (let i = 0; i < lineEnds.length; i += 2) {
    const [start, end] = [lineEnds[i]!, lineEnds[i + 1]!];
    if (!startsWithPiecePrefix(text, start)) continue;
    if (++starts > MAX_STARTS) break;
    const assembled = continued(text, start, end, isKey);
    if (assembled) found.push(assembled);
  }
  return found;
}

function startsWithPiecePrefix(text: string, at: number): boolean {
  return PIECE_PREFIXES.some((prefix) => text.startsWith(prefix, at));
}

/**
 * Whether the text holds a prefixed run that ends a line and is not a whole key (`isKey`): where a continued key can
 * start, for the editor's incremental scan to read the document whole on an edit.
 */
export function holdsLineEndPiece(text: string, isKey: (token: string) => boolean): boolean {
  let holds = false;
  prefixedRuns(text, (start, end) => {
    if (!holds && endsLine(text, end) && startsWithPiecePrefix(text, start) && boundaryBefore(text, start))
      holds = !isKey(text.slice(start, end));
  });
  return holds;
}
