// Scans bytes of any size in bounded memory: overlapping windows, each
// decoded on its own, where a finding counts only in the window that owns its
// start. A key is at most a few hundred characters, so a margin of a few KB on
// each side gives every candidate the context a whole-file scan would see, and
// no size limit has to hide a file. UTF-16 text (a BOM, as PowerShell and
// Notepad write) is decoded as such; anything else is read as UTF-8, binary
// included, so a key compiled into a bundle is still found.
import { isAscii, isUtf8 } from 'node:buffer';
import { type Finding, LOOSE_CAP, type ScanOptions, isKeyChar, scanTextCounted } from './scanner.ts';
import { keyStarts, mayContainKey } from './literalPrecheck.ts';
import { type TextEncoding, decodeUtf16, encodingOf } from './byteScan.ts';
import { MAX_TOKEN } from './rules.ts';
import { newlinesIn } from './precheck.ts';

/** UTF-16 code units in UTF-8 bytes: one per lead byte, two for a four-byte sequence. */
function utf16Units(bytes: Buffer, from: number, to: number): number {
  // Native checks first: the byte loop below ran at a third of a GB/s on long lines. Valid UTF-8
  // decodes to exactly the units counted below; only invalid bytes (binary) need the loop.
  const part = bytes.subarray(from, to);
  if (isAscii(part)) return to - from;
  if (isUtf8(part)) return part.toString('utf8').length;
  let units = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/**
 * Small enough that a window without "sk-" is passed over undecoded (most of
 * a large file), large enough that the margins cost under 1%.
 */
export const DEFAULT_WINDOW = 1 << 20;

/** Comments that open a region without a bound on its reach (allowComments.ts). */
const DISABLES = [Buffer.from('keyward-disable', 'latin1'), Buffer.from('secretlint-disable', 'latin1')];

/**
 * Feed bytes with push(), in pieces of any size; end() returns every finding
 * with lines and columns of the whole input. Memory stays near one window.
 */
export class StreamScan {
  private readonly options: ScanOptions;
  private encoding: TextEncoding | undefined;
  private readonly step: number;
  private readonly margin: number;
  /**
   * One window, owned and reused: push() copies into it, so a caller may read every chunk into the same
   * buffer, and a large file costs no fresh 4 MB chunk (nor its garbage) per read. Bytes held are
   * [start, start + held); the room before start is taken back when a push would not fit.
   */
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  private held = 0;
  /** Global offset of the first byte held, and where findings not yet reported start. */
  private base = 0;
  private acceptFrom = 0;
  /** Newlines before base, and UTF-16 units between the last of them and base. */
  private lines = 0;
  private column = 0;
  private readonly found: Finding[] = [];
  private readonly looseCap: number;
  private loose = 0;
  /** Medium-confidence findings past the cap, over the whole input. */
  omitted = 0;

  constructor(options: ScanOptions = {}, window = DEFAULT_WINDOW) {
    // Each window lists all it finds; the cap applies once, to the whole input.
    this.options = { ...options, looseCap: Infinity };
    this.looseCap = options.looseCap ?? LOOSE_CAP;
    const longestKnown = Math.max(0, ...(options.known ?? []).map((k) => Buffer.byteLength(k.value) * 2));
    this.margin = Math.max(4096, MAX_TOKEN * 8, longestKnown + 64);
    this.step = Math.max(window, this.margin * 4) & ~1;
  }

  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.append(bytes);
    if (this.encoding === undefined) {
      if (this.held < 2) return;
      this.encoding = encodingOf(this.joined());
      // The byte-order mark is not text: columns start after it, as the editor shows them.
      if (this.encoding !== 'utf8') this.drop(2);
    }
    while (this.held >= this.acceptFrom - this.base + this.step + this.margin) this.window(false);
  }

  end(): Finding[] {
    this.encoding ??= 'utf8';
    this.window(true);
    return this.found;
  }

  private append(bytes: Buffer): void {
    if (this.start + this.held + bytes.length > this.buf.length) {
      if (this.held + bytes.length <= this.buf.length) this.buf.copyWithin(0, this.start, this.start + this.held);
      else {
        // Doubling: a few growths to what a push brings plus what a window keeps, then reused; small
        // inputs (a diff's added lines) stay small.
        const grown = Buffer.allocUnsafe(Math.max(this.held + bytes.length, this.buf.length * 2));
        this.buf.copy(grown, 0, this.start, this.start + this.held);
        this.buf = grown;
      }
      this.start = 0;
    }
    bytes.copy(this.buf, this.start + this.held);
    this.held += bytes.length;
  }

  private drop(count: number): void {
    this.start += count;
    this.held -= count;
    this.base += count;
    this.acceptFrom += count;
  }

  private joined(): Buffer {
    return this.buf.subarray(this.start, this.start + this.held);
  }

  /** Moves a cut forward to the start of a character, so no window splits one. */
  private align(data: Buffer, at: number): number {
    let i = Math.min(at, data.length);
    if (this.encoding === 'utf8') {
      for (let n = 0; n < 3 && i < data.length && (data[i]! & 0xc0) === 0x80; n++) i++;
    } else i += i & 1;
    return Math.min(i, data.length);
  }

  private window(last: boolean): void {
    const data = this.joined();
    const lo = this.acceptFrom - this.base;
    const hi = last ? data.length : this.align(data, lo + this.step);
    const end = last ? data.length : this.align(data, hi + this.margin);
    this.scanWindow(data, lo, hi, end);
    if (last) return;
    const next = this.align(data, hi - this.margin);
    this.advance(data, next);
    this.start += next;
    this.held -= next;
    this.base += next;
    this.acceptFrom = this.base + (hi - next);
  }

  private decode(data: Buffer, from: number, to: number): string {
    const bytes = data.subarray(from, to);
    return this.encoding === 'utf8'
      ? bytes.toString('utf8')
      : decodeUtf16(bytes, this.encoding as 'utf16le' | 'utf16be');
  }

  /** The UTF-16 units the bytes decode to: counted, not decoded, where that is exact (ASCII, UTF-16). */
  private unitsIn(data: Buffer, from: number, to: number): number {
    if (this.encoding !== 'utf8') return (to - from) >> 1;
    return isAscii(data.subarray(from, to)) ? to - from : this.decode(data, from, to).length;
  }

  private scanWindow(data: Buffer, lo: number, hi: number, end: number): void {
    if (this.encoding === 'utf8') {
      const bytes = data.subarray(0, end);
      const starts = keyStarts(bytes, this.options);
      if (starts === undefined ? !mayContainKey(bytes, this.options) : starts.length === 0) return;
      // A disable comment can reach any distance forward: such a window is read whole, as a file would be.
      if (starts !== undefined && !DISABLES.some((marker) => bytes.includes(marker))) {
        this.scanAround(data, lo, hi, end, starts);
        return;
      }
    }
    // One decode of the whole window (a flat string: scanning a concatenation is many times slower);
    // the margins, small, are decoded again on their own to know where the owned part starts and ends.
    const text = this.decode(data, 0, end);
    this.keep(
      text,
      scanTextCounted(text, this.options).findings,
      this.unitsIn(data, 0, lo),
      text.length - this.unitsIn(data, hi, end),
      0,
      this.column,
    );
  }

  /**
   * Decodes and scans only the lines around each place a key can start, a margin on each side as the
   * windows overlap: a window of a large file where every megabyte names a key was decoded and read whole,
   * at a tenth of the speed of the same bytes as small files. Lines are counted only where a finding is.
   */
  private scanAround(data: Buffer, lo: number, hi: number, end: number, starts: number[]): void {
    let counted = 0;
    let lines = 0;
    for (let i = 0; i < starts.length;) {
      const from = this.lineStartNear(data, Math.max(0, starts[i]! - this.margin));
      let to = this.lineEndNear(data, Math.min(end, starts[i]! + this.margin), end);
      // Places whose margins meet are read as one region.
      while (++i < starts.length && starts[i]! - this.margin < to)
        to = this.lineEndNear(data, Math.min(end, starts[i]! + this.margin), end);
      if (to <= lo || from >= hi) continue;
      const text = this.decode(data, from, to);
      const { findings } = scanTextCounted(text, this.options);
      if (findings.length === 0) continue;
      lines += newlinesIn(data, counted, from);
      counted = from;
      const lastNewline = from === 0 ? -1 : data.lastIndexOf(10, from - 1);
      const loIndex = lo > from ? this.unitsIn(data, from, lo) : 0;
      const hiIndex = hi < to ? text.length - this.unitsIn(data, hi, to) : text.length;
      const column =
        lastNewline === -1 ? this.column + utf16Units(data, 0, from) : utf16Units(data, lastNewline + 1, from);
      this.keep(text, findings, loIndex, hiIndex, lines, column, from);
    }
  }

  /**
   * The start of the line that holds `at` when it is near, else the start of the token `at` is in (or a point
   * far enough back in a long one), as lineEndNear cuts.
   */
  private lineStartNear(data: Buffer, at: number): number {
    if (at === 0) return 0;
    const newline = data.subarray(Math.max(0, at - this.margin), at).lastIndexOf(10);
    if (newline !== -1) return Math.max(0, at - this.margin) + newline + 1;
    const cut = this.align(data, at);
    let start = cut;
    while (start > 0 && cut - start <= MAX_TOKEN && isKeyChar(data[start - 1]!)) start--;
    return start;
  }

  /**
   * The end of the line that holds `at` when it is near, else the first character at or after `at` that is not
   * inside a token. A region cut inside a run of key characters showed a piece of a longer token as a token of its
   * own, a key where the whole file holds none: the cut moves over the run, or far enough into it (past MAX_TOKEN)
   * that the piece is as much too long for a key as the run is.
   */
  private lineEndNear(data: Buffer, at: number, end: number): number {
    if (at >= end) return end;
    const newline = data.subarray(at, Math.min(end, at + this.margin)).indexOf(10);
    if (newline !== -1) return at + newline;
    const cut = this.align(data, at);
    let stop = cut;
    while (stop < end && stop - cut <= MAX_TOKEN && isKeyChar(data[stop]!)) stop++;
    return stop;
  }

  /**
   * Keeps the findings of a text decoded from the window's bytes at `from`, whose lines start `lines` lines
   * and its first line `column` units into the window: those that start in the owned part [loIndex, hiIndex).
   */
  private keep(
    text: string,
    findings: readonly Finding[],
    loIndex: number,
    hiIndex: number,
    lines: number,
    column: number,
    from = 0,
  ): void {
    let line = 0;
    let lineStart = 0;
    for (const finding of findings) {
      for (; line < finding.line; line++) lineStart = text.indexOf('\n', lineStart) + 1;
      const index = lineStart + finding.column;
      if (index < loIndex || index >= hiIndex) continue;
      if (finding.confidence === 'medium' && !finding.stored && ++this.loose > this.looseCap) {
        this.omitted++;
        continue;
      }
      const shift = finding.line === 0 ? column : 0;
      this.found.push({
        ...finding,
        line: this.lines + lines + finding.line,
        endLine: this.lines + lines + finding.endLine,
        column: finding.column + shift,
        // A split key can end on a later line (splitKeys.ts), where the window's column is no offset.
        endColumn: finding.endColumn + (finding.endLine === 0 ? column : 0),
        startByte: this.base + from + finding.startByte,
        endByte: this.base + from + finding.endByte,
      });
    }
  }

  /** Counts the lines and columns of the bytes about to be let go. */
  private advance(data: Buffer, to: number): void {
    if (this.encoding === 'utf8') {
      this.lines += newlinesIn(data, 0, to);
      const last = to === 0 ? -1 : data.lastIndexOf(10, to - 1);
      this.column = last === -1 ? this.column + utf16Units(data, 0, to) : utf16Units(data, last + 1, to);
      return;
    }
    const little = this.encoding === 'utf16le';
    for (let i = 0; i + 1 < to; i += 2) {
      const code = little ? data[i]! | (data[i + 1]! << 8) : (data[i]! << 8) | data[i + 1]!;
      if (code === 10) {
        this.lines++;
        this.column = 0;
      } else this.column++;
    }
  }
}
