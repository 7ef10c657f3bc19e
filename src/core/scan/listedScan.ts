// Reads the files of a listing (targets.ts) and reports what each holds, in the listing's order: one file at a time
// on the thread that calls it. scanPool.ts runs it over batches of a large listing on several threads, and joins
// what each batch found in the same order, so a scan reports the same on any number of threads.
import { isAbsolute, relative, sep } from 'node:path';
import { type ArchiveKind, archiveKind, scanArchiveFile } from './archive.ts';
import { SOURCE_MAP_TOO_LARGE, scanFile, scanSourceMapFile } from './fileScan.ts';
import type { FileFinding, GitField, Omitted, Skipped } from './report.ts';
import type { ShippedPart } from './sourceMap.ts';
import { isSourceMap } from './sourceMapName.ts';
import { type ScanOptions, optionsFor } from './scanner.ts';
import { primeScanner } from './literalPrecheck.ts';
import { type FolderFiles, type Listed, countFiles, isFolderFiles } from './targets.ts';

/** A path as a report shows it: relative to `cwd` when it is under it, else as it is; '/'-separated. */
export function display(cwd: string, path: string): string {
  if (sep === '/' && plainAbsolute(cwd) && plainAbsolute(path)) {
    // Both are normal already, as every path a scan shows is: relative()'s answer without it. Its loops over
    // every character run cold, ~20 µs a call: 3-8 ms for the 268 keys in the bench's corpus.
    if (path === cwd) return '.';
    const under = cwd === '/' ? cwd : `${cwd}/`;
    return path.startsWith(under) ? path.slice(under.length) : path;
  }
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel).split(sep).join('/');
}

/** An absolute POSIX path without a '.', '..' or empty part or a trailing '/' (a dotfile's goes the long way). */
function plainAbsolute(path: string): boolean {
  return path.startsWith('/') && !path.includes('/.') && !path.includes('//') && (path === '/' || !path.endsWith('/'));
}

/**
 * A file reached through links is read once, and what it holds is reported under each of its names (a
 * 126 MB binary linked twice in node_modules was read three times). Keyed by the real path the links
 * resolve to, which names the same device and inode; with no link in the listing, nothing is kept.
 */
class OncePerFile {
  private readonly targets = new Set<string>();
  private readonly outcomes = new Map<string, unknown>();

  constructor(files: readonly (Listed | FolderFiles)[]) {
    for (const item of files) if (!isFolderFiles(item) && item.linkTo !== undefined) this.targets.add(item.linkTo);
  }

  /** `as`: how the name says to read it (an archive kind, YAML or text), which names of one file may not share. */
  /** Whether any listed file is reached through a link; when none is, every read goes straight through. */
  get linked(): boolean {
    return this.targets.size > 0;
  }

  read<T>(as: string, path: string, linkTo: string | undefined, read: () => T): T {
    if (this.targets.size === 0) return read();
    const real = linkTo ?? (this.targets.has(path) ? path : undefined);
    if (real === undefined) return read();
    const key = `${as}\0${real}`;
    if (!this.outcomes.has(key)) this.outcomes.set(key, read());
    return this.outcomes.get(key) as T;
  }
}

/**
 * Reads every listed file; what cannot be read joins the skipped list. An
 * archive is looked inside (`a.vsix!extension/dist/x.js`), a source map by its
 * original sources (`x.js.map!src/x.ts`); medium-confidence findings past the
 * per-file cap are counted in `omitted`.
 */
export async function scanFiles(
  files: readonly (Listed | FolderFiles)[],
  maxSize: number,
  cwd: string,
  out: FileFinding[],
  skipped: Skipped[] = [],
  omitted: Omitted[] = [],
  options: ScanOptions = {},
  watch?: ScanWatch,
): Promise<void> {
  const once = new OncePerFile(files);
  const openArchive = async (
    path: string,
    shown: string,
    state: GitField,
    kind: ArchiveKind,
    linkTo: string | undefined,
  ) => {
    const name = display(cwd, shown);
    const result = await once.read(kind, path, linkTo, () => scanArchiveFile(path, kind, options, undefined, maxSize));
    if (!('findings' in result)) {
      skipped.push({ path: name, reason: result.skipped, ...(result.detail ? { detail: result.detail } : {}) });
      return;
    }
    const at = (inner: string) => (inner === '' ? name : `${name}!${inner}`);
    for (const hit of result.findings) out.push({ path: at(hit.inner), finding: hit.finding, git: state });
    for (const skip of result.skipped)
      skipped.push({ path: at(skip.inner), reason: skip.reason, ...(skip.detail ? { detail: skip.detail } : {}) });
    for (const o of result.omitted) omitted.push({ path: at(o.inner), count: o.count });
  };
  // Each option set a file can need, made once: a fresh object per file, and a shape seen for the first time
  // deep into the loop, cost an allocation each and a recompilation of the loop's optimized code.
  const variants = new Map<string, ScanOptions>();
  const optionsOf = (path: string) => {
    const fileOptions = optionsFor(path, options);
    if (fileOptions === options) return options;
    const key = `${fileOptions.yaml === true}${fileOptions.decodeBase64 === true}`;
    let kept = variants.get(key);
    if (kept === undefined) variants.set(key, (kept = fileOptions));
    return kept;
  };
  const report: Reported = { cwd, out, skipped, omitted, once, maxSize, options, optionsOf };
  const total = countFiles(files);
  if (total > 1) primeScanner();
  // The loop itself stays small (it is what the engine compiles while it runs); a file is read in scanOne. A
  // promise only for an archive: an await per file would be a turn of the event loop's microtasks each.
  const read = (path: string, shown: string, state: GitField, regular?: boolean, linkTo?: string) => {
    const kind = archiveKind(path) ?? scanOne(path, shown, state, regular, linkTo, report);
    return kind ? openArchive(path, shown, state, kind, linkTo) : undefined;
  };
  for (const item of files) {
    if (!isFolderFiles(item)) {
      const archive = read(item.path, item.shown, item.state, item.regular, item.linkTo);
      if (archive) await archive;
      if (watch !== undefined) watched(watch);
      continue;
    }
    const { prefix, shownPrefix, state, names } = item;
    for (const name of names) {
      const path = prefix + name;
      const archive = read(path, shownPrefix === prefix ? path : shownPrefix + name, state, true);
      if (archive) await archive;
      if (watch !== undefined) watched(watch);
    }
  }
}

/** Who follows a scan as it goes (a progress line): counts files, and is told every so often to look. */
export interface ScanWatch {
  files: number;
  /** Called every 32 files: cheap enough to read the clock. */
  tick(): void;
}

function watched(watch: ScanWatch): void {
  if ((++watch.files & 31) === 0) watch.tick();
}

/** What scanFiles hands each file's scan: where to put what it finds, and how to read. */
interface Reported {
  cwd: string;
  out: FileFinding[];
  skipped: Skipped[];
  omitted: Omitted[];
  once: OncePerFile;
  maxSize: number;
  options: ScanOptions;
  optionsOf: (path: string) => ScanOptions;
}

const reports = (part: ShippedPart) => part.findings.length > 0 || part.omitted > 0;

/** Scans one file that is no archive by name; says what archive its first bytes show it is, for the caller to open. */
function scanOne(
  path: string,
  shown: string,
  state: GitField,
  regular: boolean | undefined,
  linkTo: string | undefined,
  report: Reported,
): ArchiveKind | undefined {
  const { cwd, out, skipped, omitted, once, maxSize } = report;
  if (isSourceMap(path)) {
    // Always by its sources: a first pass over the map's one line could be silenced by one source's comment.
    const outcome = once.linked
      ? once.read('map', path, linkTo, () => scanSourceMapFile(path, report.options, maxSize, regular))
      : scanSourceMapFile(path, report.options, maxSize, regular);
    // A clean map is one part with nothing in it: no name made for it either.
    if (!('skipped' in outcome) && !outcome.asOneText && !outcome.parts.some(reports)) return undefined;
    const name = display(cwd, shown);
    if ('skipped' in outcome) {
      skipped.push({ path: name, reason: outcome.skipped, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      return undefined;
    }
    if (outcome.asOneText) skipped.push({ path: name, reason: 'archive-limit', detail: SOURCE_MAP_TOO_LARGE });
    for (const part of outcome.parts) {
      const where = part.source === undefined ? name : `${name}!${part.source}`;
      for (const finding of part.findings) out.push({ path: where, finding, git: state });
      if (part.omitted > 0) omitted.push({ path: where, count: part.omitted });
    }
    return undefined;
  }
  const fileOptions = report.optionsOf(path);
  // No closure per file where no link asks for one.
  const outcome = once.linked
    ? once.read(fileOptions.yaml ? 'yaml' : 'text', path, linkTo, () => scanFile(path, fileOptions, maxSize, regular))
    : scanFile(path, fileOptions, maxSize, regular);
  // A zip renamed .bin, a gzip without .gz: opened as what its first bytes say.
  if ('archive' in outcome) return outcome.archive;
  // Named only when reported: a relative path per clean file was a tenth of a tree's scan.
  if (!('skipped' in outcome) && outcome.findings.length === 0 && !outcome.omitted) return undefined;
  const name = display(cwd, shown);
  if ('skipped' in outcome) {
    skipped.push({ path: name, reason: outcome.skipped, ...(outcome.detail ? { detail: outcome.detail } : {}) });
    return undefined;
  }
  for (const finding of outcome.findings) out.push({ path: name, finding, git: state });
  if (outcome.omitted) omitted.push({ path: name, count: outcome.omitted });
  return undefined;
}
