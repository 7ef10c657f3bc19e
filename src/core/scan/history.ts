// Keys ever committed: the added lines of `git log -p`, read as git writes
// them (no buffer to outgrow, however long the history), with git's exit
// status checked: a log that failed is an error, never "no key found".
import { redactSecrets } from '../redact.ts';
import { gitMessage, gitStream, runGit } from './git.ts';
import type { FileFinding } from './report.ts';
import { type ScanOptions, mayContainKey, optionsFor, scanText } from './scanner.ts';
import { StreamScan } from './streamScan.ts';

/** Marks a commit line: no diff line can start with a NUL byte. */
const COMMIT_MARK = '\0commit ';

/**
 * Oldest first, so a key is reported in the commit that added it; `--text` so
 * binary files are searched too. git.ts adds --no-textconv, --no-ext-diff,
 * --no-show-signature and --no-color.
 */
export const HISTORY_LOG_ARGS: readonly string[] = [
  'log',
  '-p',
  '--all',
  '--reverse',
  '-U0',
  '--text',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  `--format=%x00commit %H %s`,
];

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

type LineKind = 'commit' | 'file' | 'hunk' | 'added' | 'removed' | 'other';

/** Reads `git log -p -U0` output pushed in pieces of any size and scans every added line. */
export class HistoryParser {
  private readonly options: ScanOptions;
  private readonly seen = new Set<string>();
  private readonly findings: FileFinding[] = [];
  commits = 0;
  private commit = '';
  private subject = '';
  private path = '';
  /** 0-based line in the new file of the next added line. */
  private newLine = 0;
  private plusLeft = 0;
  private minusLeft = 0;
  private kind: LineKind | undefined;
  private parts: Buffer[] = [];
  private size = 0;
  private stream: StreamScan | undefined;

  constructor(options: ScanOptions = {}) {
    this.options = options;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline;
      this.feed(chunk.subarray(at, end));
      if (newline === -1) return;
      this.endLine();
      at = newline + 1;
    }
  }

  end(): FileFinding[] {
    if (this.kind !== undefined) this.endLine();
    return this.findings;
  }

  private classify(first: number): LineKind {
    if (first === 0) return 'commit';
    if (this.plusLeft > 0 || this.minusLeft > 0) {
      if (first === 0x2b && this.plusLeft > 0) return 'added';
      if (first === 0x2d && this.minusLeft > 0) return 'removed';
      if (first === 0x5c) return 'other';
      // Not a line of the hunk after all: read it as a header.
      this.plusLeft = 0;
      this.minusLeft = 0;
    }
    if (first === 0x2b) return 'file';
    if (first === 0x40) return 'hunk';
    return 'other';
  }

  private feed(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.kind === undefined) {
      this.kind = this.classify(piece[0]!);
      if (this.kind === 'added') piece = piece.subarray(1);
    }
    if (this.kind === 'other' || this.kind === 'removed') return;
    if (this.kind !== 'added') {
      if (this.size < HEADER_CAP) this.keep(piece.subarray(0, HEADER_CAP - this.size));
      return;
    }
    if (this.stream) {
      this.stream.push(piece);
      return;
    }
    this.keep(Buffer.from(piece));
    if (this.size > LONG_LINE) {
      this.stream = new StreamScan(optionsFor(this.path, this.options));
      for (const part of this.parts) this.stream.push(part);
      this.parts = [];
    }
  }

  private keep(piece: Buffer): void {
    this.parts.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    const kind = this.kind ?? this.classify(-1);
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const stream = this.stream;
    this.kind = undefined;
    this.parts = [];
    this.size = 0;
    this.stream = undefined;
    switch (kind) {
      case 'commit': {
        const line = bytes.toString('utf8');
        if (!line.startsWith(COMMIT_MARK)) return;
        const rest = line.slice(COMMIT_MARK.length);
        const space = rest.indexOf(' ');
        this.commit = space === -1 ? rest : rest.slice(0, space);
        this.subject = space === -1 ? '' : redactSecrets(rest.slice(space + 1));
        this.commits++;
        this.plusLeft = 0;
        this.minusLeft = 0;
        return;
      }
      case 'file': {
        const line = bytes.toString('utf8');
        if (!line.startsWith('+++ ')) return;
        // git ends a name holding a space with a tab (for patch), quoted or not.
        const name = unquotePath(line.slice(4).replace(/\t$/, ''));
        this.path = name.startsWith('b/') ? name.slice(2) : name;
        return;
      }
      case 'hunk': {
        const match = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(bytes.toString('utf8'));
        if (!match) return;
        this.minusLeft = match[1] === undefined ? 1 : Number(match[1]);
        this.newLine = Number(match[2]) - 1;
        this.plusLeft = match[3] === undefined ? 1 : Number(match[3]);
        return;
      }
      case 'added': {
        this.plusLeft--;
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
            subject: this.subject,
          });
        }
        this.newLine++;
        return;
      }
      case 'removed':
        this.minusLeft--;
        return;
      default:
      // "\ No newline at end of file", or a header line we do not need.
    }
  }
}

/** Parses a whole `git log -p -U0` output and scans every added line. */
export function scanLogPatch(patch: string, options: ScanOptions = {}): FileFinding[] {
  const parser = new HistoryParser(options);
  parser.push(Buffer.from(patch.replace(/^commit /gm, COMMIT_MARK)));
  return parser.end();
}

export interface HistoryControl {
  signal?: AbortSignal;
  /** Called as commits go by, with how many have been read. */
  onProgress?: (commits: number) => void;
}

export interface HistoryScan {
  /** Paths inside the repository. */
  findings: FileFinding[];
  commits: number;
  cancelled: boolean;
}

export class HistoryError extends Error {}

/** How many commits a history scan will read (for a progress bar). */
export async function countCommits(root: string): Promise<number | undefined> {
  const result = await runGit(['rev-list', '--all', '--count'], root);
  return result.code === 0 ? Number(result.stdout.trim()) : undefined;
}

export async function scanHistory(
  root: string,
  options: ScanOptions = {},
  control: HistoryControl = {},
): Promise<HistoryScan> {
  const parser = new HistoryParser(options);
  const git = gitStream(HISTORY_LOG_ARGS, root, control.signal ? { signal: control.signal } : {});
  let reported = 0;
  for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
    parser.push(chunk);
    if (control.onProgress && parser.commits !== reported) {
      reported = parser.commits;
      control.onProgress(reported);
    }
  }
  const { code, stderr } = await git.done;
  if (control.signal?.aborted) return { findings: parser.end(), commits: parser.commits, cancelled: true };
  if (code !== 0) throw new HistoryError(`git log failed (exit ${code}): ${gitMessage(stderr) || 'no message'}`);
  return { findings: parser.end(), commits: parser.commits, cancelled: false };
}
