// The reader of `git log -p` output (history.ts starts git and feeds it): commit and file headers, hunks, and the
// added lines, scanned as they arrive; long lines and binary blobs are scanned in windows, not held whole.
import { redactSecrets } from '../redact.ts';
import { archiveKind, archiveMagic } from './formats.ts';
import type { FileFinding } from './report.ts';
import { type Finding, type ScanOptions, optionsFor, scanText } from './scanner.ts';
import { mayContainKey, shapesOnly } from './literalPrecheck.ts';
import { ChunkHints } from './chunkHints.ts';
import { StreamScan } from './streamScan.ts';

const NO_BYTES = Buffer.alloc(0);

/** Marks a commit line: no diff line can start with a NUL byte. */
const COMMIT_MARK = '\0commit ';

/** An added line longer than this is scanned in windows instead of held whole. */
const LONG_LINE = 1 << 20;
/** Header lines we keep (commit subject, file name, hunk header); longer ones are cut. */
const HEADER_CAP = 64 << 10;

/** Undoes git's C-style quoting of a path ("b/\303\251.txt"). */
export function unquotePath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = raw[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(raw.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Whether an added line looks like a piece of UTF-16 text: NUL bytes on one
 * parity (a diff splits UTF-16 at the 0x0a byte, so lines are never whole
 * characters). Such a file's key never shows as UTF-8 in the diff; its blob is
 * read whole afterwards, through the file scan's decoding.
 */
export function looksWide(bytes: Buffer): boolean {
  if (bytes.length < 4 || !bytes.includes(0)) return false;
  const n = Math.min(bytes.length, 512);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== 0) continue;
    if (i % 2 === 0) even++;
    else odd++;
  }
  return Math.max(even, odd) * 4 >= n && Math.min(even, odd) * 8 <= n;
}

/** Adds a blob to a list unless that version of that path is there already. */
function once(seen: Set<string>, list: HistoryBlob[], blob: HistoryBlob): void {
  const id = `${blob.oid}|${blob.path}`;
  if (seen.has(id)) return;
  seen.add(id);
  list.push(blob);
}

type LineKind = 'commit' | 'diff' | 'index' | 'file' | 'hunk' | 'binary' | 'added' | 'kept' | 'removed' | 'other';

/** A file version in history to read whole (UTF-16 text), with the commit that wrote it. */
export interface HistoryBlob {
  path: string;
  oid: string;
  commit: string;
  subject: string;
}

/** What a parser of part of a history found (HistoryParser.parsed), in its order. */
export interface ParsedRange {
  findings: FileFinding[];
  wide: readonly HistoryBlob[];
  whole: readonly HistoryBlob[];
  commits: number;
}

/**
 * Reads `git log -p -U0 --cc` output pushed in pieces of any size and scans
 * every added line; in a merge's combined diff, every line new to all parents.
 */
export class HistoryParser {
  private readonly options: ScanOptions;
  private readonly seen = new Set<string>();
  private readonly findings: FileFinding[] = [];
  private readonly wide: HistoryBlob[] = [];
  private readonly wideSeen = new Set<string>();
  private readonly whole: HistoryBlob[] = [];
  private readonly wholeSeen = new Set<string>();
  commits = 0;
  private commit = '';
  /** The commit's subject as git wrote it; redacted (subject()) only for a commit something is reported in. */
  private rawSubject = '';
  private redacted: string | undefined;
  private path = '';
  /** The new version's object id of the file being read (from the diff's index line). */
  private blob = '';
  /** 0-based line in the new file of the next result line. */
  private newLine = 0;
  /** Parents a hunk compares with: 1 for a plain diff, 2 or more in a merge's combined diff. */
  private columns = 1;
  private plusLeft = 0;
  private minusLeft: number[] = [];
  /** The current hunk line's marker columns, as they arrive. */
  private prefix: number[] = [];
  /** The other marker array (endLine swaps them): read after the line is over, emptied when it is next used. */
  private spare: number[] = [];
  private kind: LineKind | undefined;
  private parts: Buffer[] = [];
  private size = 0;
  private stream: StreamScan | undefined;

  private readonly hints = new ChunkHints();
  /** The options look for more than the key shapes: every added line is read (literalPrecheck.ts). */
  private readonly everyLine: boolean;

  constructor(options: ScanOptions = {}) {
    this.options = options;
    this.everyLine = !shapesOnly(options);
  }

  /** Reads the next piece of git's output; views of it are kept until its lines end, so it must not change after. */
  push(chunk: Buffer): void {
    this.hints.reset(chunk);
    let at = this.skim(chunk, 0);
    while (at < chunk.length) {
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline;
      this.feed(chunk.subarray(at, end));
      if (newline === -1) return;
      this.endLine();
      at = this.skim(chunk, newline + 1);
    }
  }

  /**
   * The hunk lines of a plain diff from `at` (a line's start), each whole in the chunk, as endLine reads them but
   * without a view of each: a removed line is counted, an added one counted and read only where chunkHints.ts says
   * it can hold more than nothing. Returns where a line the general path reads starts (a header, a merge's line, a
   * line the chunk cuts).
   */
  private skim(chunk: Buffer, at: number): number {
    if (this.columns !== 1 || this.kind !== undefined || this.prefix.length > 0) return at;
    while (at < chunk.length) {
      const marker = chunk[at];
      const end = chunk.indexOf(10, at);
      if (end === -1 || end - at > LONG_LINE) return at;
      if (marker === 0x2d && this.minusLeft[0]! > 0) this.minusLeft[0]!--;
      else if (marker === 0x2b && this.plusLeft > 0) {
        this.plusLeft--;
        // The first line is read for an archive's magic bytes.
        if (this.everyLine || this.newLine === 0 || this.hints.worthReading(at + 1, end))
          this.added(chunk.subarray(at + 1, end), undefined);
        this.newLine++;
      } else return at;
      at = end + 1;
    }
    return at;
  }

  end(): FileFinding[] {
    if (this.kind !== undefined || this.prefix.length > 0) this.endLine();
    return this.findings;
  }

  /** File versions whose added lines looked like UTF-16, in history order, once each. */
  wideBlobs(): readonly HistoryBlob[] {
    return this.wide;
  }

  /**
   * File versions to read whole, in history order, once each: archives, by their name or their first bytes, and
   * binary files a merge wrote (its combined diff shows them as "Binary files differ", whatever --text asks).
   */
  wholeBlobs(): readonly HistoryBlob[] {
    return this.whole;
  }

  /**
   * Takes in what a parser of the commits after this one's found (historySplit.ts reads history in ranges, a parser
   * each, maybe on another thread): its findings and blobs join these in order, each still once, as one parser of
   * both ranges reports them.
   */
  absorb(later: ParsedRange): void {
    for (const found of later.findings) this.report(found.path, found.finding, found.commit!, found.subject!);
    for (const blob of later.wide) once(this.wideSeen, this.wide, blob);
    for (const blob of later.whole) once(this.wholeSeen, this.whole, blob);
    this.commits += later.commits;
  }

  /** All this parser read, ended: plain data, for absorb() here or on another thread (historyThreads.ts). */
  parsed(): ParsedRange {
    return { findings: this.end(), wide: this.wide, whole: this.whole, commits: this.commits };
  }

  /** Reports a key found elsewhere (a whole blob), unless this file's history already did. */
  report(path: string, finding: Finding, commit: string, subject: string): void {
    const id = `${finding.fingerprint}|${path}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.findings.push({ path, finding, git: 'history', commit, subject });
  }

  /** The commit's subject, redacted: once per commit that reports something, not for each of a long history's. */
  private subject(): string {
    this.redacted ??= redactSecrets(this.rawSubject);
    return this.redacted;
  }

  private inHunk(): boolean {
    return this.plusLeft > 0 || this.minusLeft.some((n) => n > 0);
  }

  /** A line outside a hunk: the hunk (if any) is over. */
  private header(first: number): LineKind {
    this.plusLeft = 0;
    this.minusLeft = [];
    if (first === 0) return 'commit';
    if (first === 0x2b) return 'file';
    if (first === 0x40) return 'hunk';
    if (first === 0x64) return 'diff';
    if (first === 0x69) return 'index';
    if (first === 0x42) return 'binary';
    return 'other';
  }

  /** The kind of a line inside a hunk from its marker columns, or undefined when it cannot be one. */
  private hunkLine(): LineKind | undefined {
    if (this.prefix[0] === 0x5c) return 'other'; // "\ No newline at end of file"
    let minus = false;
    let plus = 0;
    for (let i = 0; i < this.prefix.length; i++) {
      const c = this.prefix[i]!;
      if (c === 0x2d) {
        if (!(this.minusLeft[i]! > 0)) return undefined;
        minus = true;
      } else if (c === 0x2b) plus++;
      else if (c !== 0x20) return undefined;
    }
    if (minus) return 'removed';
    if (!(this.plusLeft > 0)) return undefined;
    return plus === this.columns ? 'added' : 'kept';
  }

  private feed(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.kind === undefined) {
      if (this.inHunk()) {
        const take = Math.min(this.columns - this.prefix.length, piece.length);
        for (let i = 0; i < take; i++) this.prefix.push(piece[i]!);
        piece = piece.subarray(take);
        if (this.prefix.length < this.columns) return;
        this.kind = this.hunkLine();
        if (this.kind === undefined) {
          // Not a line of the hunk after all: read it as a header.
          const head = Buffer.from(this.prefix);
          this.prefix = [];
          this.kind = this.header(head[0]!);
          piece = Buffer.concat([head, piece]);
        }
        if (piece.length === 0) return;
      } else this.kind = this.header(piece[0]!);
    }
    if (this.kind === 'other' || this.kind === 'removed' || this.kind === 'kept') return;
    if (this.kind !== 'added') {
      if (this.size < HEADER_CAP) this.keep(piece.subarray(0, HEADER_CAP - this.size));
      return;
    }
    if (this.stream) {
      this.stream.push(piece);
      return;
    }
    // Kept as a view of git's chunk, as header lines are: a copy of every added line was most of what a long
    // history's parse allocated (git's chunks are each new, and none is written to after it is pushed).
    this.keep(piece);
    if (this.size > LONG_LINE) {
      this.stream = new StreamScan(optionsFor(this.path, this.options));
      for (const part of this.parts) this.stream.push(part);
      this.parts.length = 0;
    }
  }

  private keep(piece: Buffer): void {
    this.parts.push(piece);
    this.size += piece.length;
  }

  /** Forgets the line just read. The two marker arrays take turns (`marks` is read after), and the parts array is
   * emptied: no new arrays for every line of a diff. */
  private nextLine(marks: number[]): void {
    this.kind = undefined;
    this.prefix = this.spare;
    this.prefix.length = 0;
    this.spare = marks;
    this.parts.length = 0;
    this.size = 0;
    this.stream = undefined;
  }

  private endLine(): void {
    if (this.kind === undefined && this.prefix.length === this.columns) this.kind = this.hunkLine();
    const kind = this.kind ?? (this.prefix.length > 0 ? this.header(this.prefix[0]!) : this.header(-1));
    const marks = this.prefix;
    const bytes =
      this.parts.length === 1 ? this.parts[0]! : this.parts.length === 0 ? NO_BYTES : Buffer.concat(this.parts);
    const stream = this.stream;
    this.nextLine(marks);
    switch (kind) {
      case 'commit': {
        const line = bytes.toString('utf8');
        if (!line.startsWith(COMMIT_MARK)) return;
        const rest = line.slice(COMMIT_MARK.length);
        const space = rest.indexOf(' ');
        this.commit = space === -1 ? rest : rest.slice(0, space);
        this.rawSubject = space === -1 ? '' : rest.slice(space + 1);
        this.redacted = undefined;
        this.commits++;
        this.blob = '';
        return;
      }
      case 'diff': {
        this.blob = '';
        // A merge's combined diff names its file here ("diff --cc NAME"); a binary one has no "+++" line to name it.
        const combined = /^diff --(?:cc|combined) (.+)$/.exec(bytes.toString('utf8'));
        if (combined) this.path = unquotePath(combined[1]!);
        return;
      }
      case 'index': {
        // "index OLD..NEW MODE", or "index OLD1,OLD2..NEW" in a merge's combined diff.
        const match = /^index [0-9a-f,]+\.\.([0-9a-f]+)/.exec(bytes.toString('latin1'));
        if (match) this.blob = match[1]!;
        return;
      }
      case 'file': {
        const line = bytes.toString('utf8');
        if (!line.startsWith('+++ ')) return;
        // git ends a name holding a space with a tab (for patch), quoted or not.
        const name = unquotePath(line.slice(4).replace(/\t$/, ''));
        this.path = name.startsWith('b/') ? name.slice(2) : name;
        if (archiveKind(this.path)) this.readWhole();
        return;
      }
      case 'binary':
        // Only a merge's combined diff says this under --text: its bytes were not shown, so its blob is read whole.
        if (bytes.toString('latin1').startsWith('Binary files ')) this.readWhole();
        return;
      case 'hunk': {
        // "@@ -a,b +c,d @@" or, for a merge with N parents, N+1 "@" and N "-" ranges.
        const match = /^(@{2,}) ((?:-\d+(?:,\d+)? )+)\+(\d+)(?:,(\d+))? @{2,}/.exec(bytes.toString('latin1'));
        if (!match) return;
        const ranges = match[2]!.trim().split(' ');
        if (ranges.length !== match[1]!.length - 1) return;
        this.columns = ranges.length;
        this.minusLeft = ranges.map((range) => {
          const comma = range.indexOf(',');
          return comma === -1 ? 1 : Number(range.slice(comma + 1));
        });
        this.newLine = Number(match[3]) - 1;
        this.plusLeft = match[4] === undefined ? 1 : Number(match[4]);
        return;
      }
      case 'added':
      case 'kept': {
        this.plusLeft--;
        // A line in the result is in each parent whose column is blank.
        for (let i = 0; i < marks.length; i++) if (marks[i] === 0x20) this.minusLeft[i]!--;
        if (kind === 'added') this.added(bytes, stream);
        this.newLine++;
        return;
      }
      case 'removed':
        for (let i = 0; i < marks.length; i++) if (marks[i] === 0x2d) this.minusLeft[i]!--;
        return;
      default:
      // "\ No newline at end of file", or a header line we do not need.
    }
  }

  private added(bytes: Buffer, stream: StreamScan | undefined): void {
    const found = stream
      ? stream.end()
      : mayContainKey(bytes, this.options)
        ? scanText(bytes.toString('utf8'), optionsFor(this.path, this.options))
        : [];
    for (const finding of found) {
      // The same key added in the same file once is enough to report.
      const id = `${finding.fingerprint}|${this.path}`;
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      this.findings.push({
        path: this.path,
        finding: { ...finding, line: this.newLine, endLine: this.newLine },
        git: 'history',
        commit: this.commit,
        subject: this.subject(),
      });
    }
    // A file whose first line starts as an archive does: its version is opened as one, whatever its name.
    // A line of the patch, not the whole file: its size is unknown here.
    if (!stream && this.newLine === 0 && archiveMagic(bytes, Number.POSITIVE_INFINITY)) this.readWhole();
    if (!stream && this.blob && looksWide(bytes)) {
      const id = `${this.blob}|${this.path}`;
      if (!this.wideSeen.has(id)) {
        this.wideSeen.add(id);
        this.wide.push({ path: this.path, oid: this.blob, commit: this.commit, subject: this.subject() });
      }
    }
  }

  /**
   * This version, to read whole: an archive (its lines in the patch say nothing of its entries), or a binary file a
   * merge wrote (the patch shows no line of it). Read as a staged blob is: opened if it is an archive, decoded by its
   * byte-order mark if it has one, searched as bytes otherwise.
   */
  private readWhole(): void {
    if (!this.blob || /^0+$/.test(this.blob)) return;
    const id = `${this.blob}|${this.path}`;
    if (this.wholeSeen.has(id)) return;
    this.wholeSeen.add(id);
    this.whole.push({ path: this.path, oid: this.blob, commit: this.commit, subject: this.subject() });
  }
}
