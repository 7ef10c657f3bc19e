// Keys hidden in base64: Kubernetes Secrets (`data:` values), `.npmrc` `_auth`,
// `Authorization: Basic`, docker's `"auth"`. Like gitleaks (detect/codec/encodings.go
// decodes runs of `[\w/+-]{16,}={0,2}`, recursively up to --max-decode-depth), runs of a
// plausible length are decoded and the decoded text scanned; unlike it, only where such
// a value can be: the line of an `_auth`, `Basic` or `"auth"`, the block under a `data:`
// line; so ordinary code pays a few searches, and a large file only for those places.

/**
 * Words that come with a base64 secret: a Secret's `data:` block (the key alone on its line: a bare
 * "data:" is every data: URL), npm's `_auth`, basic auth, docker's `"auth"`.
 */
const ANCHORS = ['data:\n', 'data:\r\n', '_auth', 'Basic ', '"auth"'];
const ANCHOR_BYTES = ANCHORS.map((anchor) => Buffer.from(anchor, 'latin1'));
/**
 * Whether a text holds any anchor at all: one pass that settles most texts with a key in them, which hold none.
 * Five searches, each set up anew, were a seventh of scanning such texts again and again, as the editor does (the
 * bench's 203 keyed files in one process, warm: 7.0 -> 6.0 ms); a CLI scan, which meets each text once, is no
 * faster or slower for it.
 */
const ANY_ANCHOR = new RegExp(ANCHORS.map((anchor) => anchor.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'));

/** Base64 of the shortest key (27 characters) is 36 long; a run past this cannot be a short value. */
const MIN_RUN = 36;
const MAX_RUN = 1400;
/** The base64 alphabets (standard and URL-safe), by character code. */
const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64[c.charCodeAt(0)] = 1;

/** Decoding inside decoded text stops here (a Secret holding a docker config holding an auth is 3). */
export const MAX_DECODE_DEPTH = 3;

/**
 * Whether an anchor found at `at` is one: "_auth" only as a word of its own, npm's setting, not the start of
 * an identifier (`_authorize`, `_authToken`), which code is full of and which keeps no base64 there.
 */
function isAnchorAt(after: number | undefined, anchor: string): boolean {
  if (anchor !== '_auth' || after === undefined) return true;
  return !(
    (after >= 48 && after <= 57) ||
    (after >= 65 && after <= 90) ||
    (after >= 97 && after <= 122) ||
    after === 95
  );
}

/** Whether bytes name a place where base64 secrets are kept: the files the CLI reads, before they are decoded. */
export function mayHoldEncodedBytes(bytes: Buffer): boolean {
  return ANCHOR_BYTES.some((anchor, i) => {
    for (let at = bytes.indexOf(anchor); at !== -1; at = bytes.indexOf(anchor, at + anchor.length))
      if (isAnchorAt(bytes[at + anchor.length], ANCHORS[i]!)) return true;
    return false;
  });
}

export interface EncodedRun {
  start: number;
  end: number;
  decoded: string;
}

/** Lines past a `data:` line looked at, and characters of a line after an anchor. */
const DATA_BLOCK = 256 * 1024;
const LINE_REACH = 4096;

/**
 * Where base64 values can be: after an anchor on its line, and the indented block under `data:`. The places are
 * merged into disjoint regions in order, so a text is read at most once however its anchors overlap: a `data:` on
 * every line of an indented block claimed up to DATA_BLOCK after each of them, and the regions were read again
 * and again (a 256 KB YAML file of `data:` lines took 33 s).
 */
export function anchoredRegions(text: string): [number, number][] {
  if (!ANY_ANCHOR.test(text)) return [];
  const places: [number, number][] = [];
  const blocks = new DataBlocks(text);
  for (const anchor of ANCHORS) {
    // The end of the line of the last anchor: the next on the same line ends there too (a line of a megabyte of
    // `_auth` was searched to its end for each of them).
    let eol = -1;
    for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + anchor.length)) {
      const from = at + anchor.length;
      if (!isAnchorAt(from < text.length ? text.charCodeAt(from) : undefined, anchor)) continue;
      if (anchor.startsWith('data:')) places.push([from, blocks.endFrom(from)]);
      else {
        if (eol < from) eol = text.indexOf('\n', from);
        if (eol === -1) eol = text.length;
        places.push([from, Math.min(eol, from + LINE_REACH)]);
      }
    }
  }
  return mergedRegions(places);
}

/** Overlapping places as one region each, in order: what runsIn reads is never longer than the text. */
function mergedRegions(places: [number, number][]): [number, number][] {
  places.sort((a, b) => a[0] - b[0]);
  const regions: [number, number][] = [];
  for (const place of places) {
    const last = regions[regions.length - 1];
    if (last && place[0] < last[1]) last[1] = Math.max(last[1], place[1]);
    else regions.push(place);
  }
  return regions;
}

/**
 * The ends of `data:` blocks, asked for in increasing order of start within each anchor's search (and answered
 * from what was read for any start): the indented lines after a line start, read once for all the starts inside
 * them, and the cap (the first line start DATA_BLOCK after the block's own start) by a cursor that only moves on.
 */
class DataBlocks {
  /** The last walk read the indented lines [walkFrom, walkEnd): a block that starts inside them ends there too. */
  private walkFrom = -1;
  private walkEnd = -1;
  /** The line start found for the cap last, and the point it was asked for. */
  private capAsked = -1;
  private capAt = -1;

  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Where the block of a `data:` line whose next line starts at `from` ends. */
  endFrom(from: number): number {
    if (!(from >= this.walkFrom && from <= this.walkEnd)) {
      this.walkFrom = from;
      this.walkEnd = this.indentedFrom(from);
    } else if (this.walkEnd < this.text.length && this.indented(this.walkEnd)) {
      // The last walk stopped at its own cap, not at an unindented line: go on from there.
      this.walkEnd = this.indentedFrom(this.walkEnd);
    }
    return Math.min(this.walkEnd, this.capFrom(from + DATA_BLOCK));
  }

  private indented(at: number): boolean {
    const code = this.text.charCodeAt(at);
    return code === 32 || code === 9 || code === 13 || code === 10;
  }

  /** The end of the indented (or empty) lines from the line start `from`, read at most DATA_BLOCK far. */
  private indentedFrom(from: number): number {
    let end = from;
    while (end < this.text.length && end - from < DATA_BLOCK && this.indented(end)) {
      const eol = this.text.indexOf('\n', end);
      end = eol === -1 ? this.text.length : eol + 1;
    }
    return end;
  }

  /** The first line start at or after `at` (the text's end if none): the last answer holds for [asked, answer]. */
  private capFrom(at: number): number {
    if (at >= this.text.length) return this.text.length;
    if (at >= this.capAsked && at <= this.capAt) return this.capAt;
    this.capAsked = at;
    const eol = this.text.charCodeAt(at - 1) === 10 ? at - 1 : this.text.indexOf('\n', at);
    this.capAt = eol === -1 ? this.text.length : eol + 1;
    return this.capAt;
  }
}

/** Runs of base64 in `text` (or in its `regions`) whose decoded bytes are printable text, with that text. */
export function encodedRuns(text: string, regions: [number, number][] = [[0, text.length]]): EncodedRun[] {
  const runs: EncodedRun[] = [];
  const seen = new Set<number>();
  for (const [from, to] of regions) runsIn(text, from, to, runs, seen);
  return runs.length > 1 ? runs.sort((a, b) => a.start - b.start) : runs;
}

// The loop over characters is all that runs often, and it alone is what the engine optimises: with the decoding
// in the same function, its optimising compile took 7-18 ms of CPU in a scan of the bench's tree.
function runsIn(text: string, from: number, to: number, runs: EncodedRun[], seen: Set<number>): void {
  // One pass over the characters: a regex for "36 or more" tried again at every start inside each
  // shorter run (every identifier) cost fifty times more on a large file.
  let start = from;
  for (let at = from; at <= to; at++) {
    const code = at < to ? text.charCodeAt(at) : 0;
    if (code < 128 && BASE64[code] === 1) continue;
    let end = at;
    while (end < to && end - at < 2 && text.charCodeAt(end) === 61) end++; // "=" padding
    const length = end - start;
    if (length >= MIN_RUN && length <= MAX_RUN) addRun(text, start, end, runs, seen);
    // Past the padding the next run starts; else past this character.
    start = end > at ? end : at + 1;
    at = start - 1;
  }
}

function addRun(text: string, start: number, end: number, runs: EncodedRun[], seen: Set<number>): void {
  if (seen.has(start)) return;
  seen.add(start);
  const bytes = Buffer.from(text.slice(start, end), 'base64');
  if (printable(bytes)) runs.push({ start, end, decoded: bytes.toString('latin1') });
}

/** Printable ASCII with tabs and line breaks: what a key, a `user:key` pair or a config is. */
function printable(bytes: Buffer): boolean {
  for (const byte of bytes) if ((byte < 0x20 || byte > 0x7e) && byte !== 9 && byte !== 10 && byte !== 13) return false;
  return bytes.length > 0;
}
