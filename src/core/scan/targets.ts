// Which files a scan reads. Inside a git repository: what git tracks or would
// commit (submodules and nested repositories included, each asked on its own);
// elsewhere, or with --no-git, every file but the folders skipped by default.
// Targets are resolved to real paths first, so a symlink to a repository (or a
// symlinked folder inside one) is listed by the repository that holds the
// files; paths are shown as the user named them. Everything not read is named.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { literalPath, runGit } from './git.ts';
import { type GitStatusCache, realPathOfSync } from './gitStatus.ts';
import type { GitField, Skipped } from './report.ts';
import { failureOf, specialKind } from './fileScan.ts';

/** Folders a walk skips unless asked: git's own store and installed packages. */
export const DEFAULT_EXCLUDED_DIRS: readonly string[] = ['.git', 'node_modules'];

export interface Listed {
  /** Where to read (a real path). */
  path: string;
  /** Where the user sees it (under the target as they named it). */
  shown: string;
  state: GitField;
  /** The listing saw a regular file here (a directory entry, or git's index): the reader may skip its own check. */
  regular?: boolean;
  /** Reached through a symbolic link: the real path of the file it names, which a scan reads once for all its names. */
  linkTo?: string;
}

/**
 * The plain files (regular, reached by no link) a walk met in a row in one folder: kept as the folder's paths
 * and the files' names, one object for them all. A path and an object per file, made while listing and kept
 * until the scan read the file, outlived V8's young generation and were copied by each collection; kept as
 * names, a scan of 10,674 files took 1.29x ripgrep's wall time instead of 1.35x (bench/scanner.ts's corpus,
 * interleaved). Each file's path is made when it is read.
 */
export interface FolderFiles {
  /** The folder's real path, ending in a separator. */
  prefix: string;
  /** The folder as the user sees it, ending in a separator: the same string as `prefix` when they are equal. */
  shownPrefix: string;
  state: GitField;
  names: string[];
}

export interface Listing {
  /** In the order a scan reads and reports them: single files, and walked folders' plain files. */
  files: (Listed | FolderFiles)[];
  skipped: Skipped[];
}

/** Whether an item of a listing is a folder's run of plain files. */
export function isFolderFiles(item: Listed | FolderFiles): item is FolderFiles {
  return 'names' in item;
}

/** How many files a listing holds. */
export function countFiles(files: readonly (Listed | FolderFiles)[]): number {
  let count = 0;
  for (const item of files) count += isFolderFiles(item) ? item.names.length : 1;
  return count;
}

export interface ListOptions {
  useGit: boolean;
  git: GitStatusCache;
  /** Names of default-skipped folders to walk anyway. */
  includeDirs?: ReadonlySet<string>;
  /**
   * The targets are folders the person named: each (but a repository's root) is read whole, what git ignores in it
   * included, so `keyward scan build` with `build/*` in .gitignore never says "no keys found" over unread files.
   */
  named?: boolean;
}

export class GitFailure extends Error {}

const toPosix = (path: string) => path.split(sep).join('/');
/** A path git printed ('/'-separated), under a folder: once per file, so no normalising where it is not needed. */
const under = (root: string, path: string) =>
  sep === '/' ? (root.endsWith('/') ? root + path : `${root}/${path}`) : join(root, path);

/** Lists what the targets hold; each target is an absolute path as given, read through its real path. */
export async function listTargets(targets: readonly string[], options: ListOptions): Promise<Listing> {
  const listing: Listing = { files: [], skipped: [] };
  // Two targets can hold the same file; one cannot (folder links are not followed).
  const seen = targets.length > 1 ? new Set<string>() : null;
  for (const given of targets) {
    const real = realPathOfSync(given);
    await listTarget(real, given, options, listing, seen);
  }
  return { files: listing.files, skipped: listing.skipped };
}

async function listTarget(
  real: string,
  shown: string,
  options: ListOptions,
  out: Listing,
  seen: Set<string> | null,
): Promise<void> {
  let stat;
  try {
    stat = statSync(real);
  } catch (error) {
    out.skipped.push({ path: shown, ...skipOf(error) });
    return;
  }
  if (!stat.isDirectory()) {
    // A file named on the command line is read whatever git thinks of it.
    if (!stat.isFile()) out.skipped.push({ path: shown, reason: 'special-file', detail: specialKind(stat) });
    else if (first(seen, real)) {
      let state: GitField = options.useGit ? await options.git.status(real) : 'unknown';
      if (state === 'outside' && (await refused(dirname(real), shown, options, out))) state = 'unknown';
      out.files.push({ path: real, shown, state, regular: true });
    }
    return;
  }
  const root = options.useGit ? await options.git.root(real) : null;
  if (root) await listRepository(root, real, shown, options, out, seen);
  else {
    // A repository git refuses is named (exit 2) and read as a plain folder, never as one outside git.
    const state = !options.useGit || (await refused(real, shown, options, out)) ? 'unknown' : 'outside';
    walk(real, shown, state, options.includeDirs ?? new Set(), out, seen);
  }
}

/** Names a repository git refuses to open at a folder; whether it did. */
async function refused(real: string, shown: string, options: ListOptions, out: Listing): Promise<boolean> {
  const refusal = await options.git.refusal(real);
  if (refusal) out.skipped.push({ path: shown, reason: 'git-refused', detail: refusal.message });
  return refusal !== null;
}

/** Whether a path is met for the first time (always, when there is nothing to dedupe). */
function first(seen: Set<string> | null, path: string): boolean {
  if (!seen) return true;
  if (seen.has(path)) return false;
  seen.add(path);
  return true;
}

function skipOf(error: unknown): Omit<Skipped, 'path'> {
  const failure = failureOf(error);
  return failure.detail ? { reason: failure.skipped, detail: failure.detail } : { reason: failure.skipped };
}

function split(output: string): string[] {
  return output.split('\0').filter(Boolean);
}

/** git names folders it could not open on stderr and carries on; each is a folder not scanned. */
function unreadableFolders(stderr: string): { path: string; detail: string }[] {
  return [...stderr.matchAll(/could not open directory '(.+?)': (.+)$/gm)].map((m) => ({
    path: m[1]!.replace(/\/$/, ''),
    detail: m[2]!.trim().toLowerCase(),
  }));
}

async function listRepository(
  root: string,
  real: string,
  shown: string,
  options: ListOptions,
  out: Listing,
  seen: Set<string> | null,
): Promise<void> {
  const rel = toPosix(relative(root, real)) || '.';
  const show = (path: string) => (shown === real ? under(root, path) : join(shown, relative(real, under(root, path))));
  // All at once: each is a process to start, and none needs another.
  const [tracked, others, ignored] = await Promise.all([
    runGit(['ls-files', '-z', '--stage', '--', literalPath(rel)], root),
    runGit(['ls-files', '-z', '--others', '--exclude-standard', '--', literalPath(rel)], root),
    rel === '.' ? false : options.named || ignoredFolder(root, rel),
  ]);
  if (tracked.code !== 0) throw new GitFailure(`git ls-files failed in ${root}: ${tracked.stderr.trim()}`);
  if (others.code !== 0) throw new GitFailure(`git ls-files failed in ${root}: ${others.stderr.trim()}`);

  let previous = '';
  for (const entry of split(tracked.stdout)) {
    const tab = entry.indexOf('\t');
    const mode = entry.slice(0, 6);
    const path = entry.slice(tab + 1);
    // Unmerged files are listed once per stage.
    if (path === previous) continue;
    previous = path;
    const full = under(root, path);
    if (mode === '160000') {
      if (existsSync(join(full, '.git'))) await listTarget(full, show(path), options, out, seen);
      else out.skipped.push({ path: show(path), reason: 'submodule-not-checked-out' });
    } else if (mode === '120000') out.skipped.push({ path: show(path), reason: 'symlink' });
    // The index says regular file; a worktree swapped for something else still gets checked on an empty or full read.
    else if (first(seen, full)) {
      out.files.push({
        path: full,
        shown: show(path),
        state: 'tracked',
        regular: mode === '100644' || mode === '100755',
      });
    }
  }
  await listUntracked(split(others.stdout), 'untracked', root, show, options, out, seen);
  for (const folder of unreadableFolders(others.stderr))
    out.skipped.push({ path: show(folder.path), reason: 'unreadable-folder', detail: folder.detail });
  if (ignored) await listIgnored(root, rel, show, options, out, seen);
}

/**
 * Whether git ignores a folder (itself, or a folder above it). A folder the user asks for is scanned whatever git
 * ignores: "no keys found" over a folder none of whose files were read would be a clean result for nothing.
 */
async function ignoredFolder(root: string, rel: string): Promise<boolean> {
  // check-ignore takes no pathspec magic; "./" keeps a name starting with ':' a name. Without --no-index a
  // folder holding one tracked file (added with -f) would pass for one git does not ignore.
  const result = await runGit(['check-ignore', '-q', '--no-index', '--', `./${rel}`], root);
  if (result.code > 1) throw new GitFailure(`git check-ignore failed in ${root}: ${result.stderr.trim()}`);
  return result.code === 0;
}

/**
 * The files git ignores in a folder it ignores, as a walk of it lists them: what git tracks there is listed
 * already; folders skipped by default (node_modules) are named, unless --include-dir asks for them.
 */
async function listIgnored(
  root: string,
  rel: string,
  show: (path: string) => string,
  options: ListOptions,
  out: Listing,
  seen: Set<string> | null,
): Promise<void> {
  const result = await runGit(
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', literalPath(rel)],
    root,
  );
  if (result.code !== 0) throw new GitFailure(`git ls-files failed in ${root}: ${result.stderr.trim()}`);
  const include = options.includeDirs ?? new Set<string>();
  const excluded = new Set<string>();
  const paths = split(result.stdout).filter((path) => {
    const names = path.slice(rel.length + 1).split('/');
    const at = names.findIndex((name, i) => i < names.length - 1 && DEFAULT_EXCLUDED_DIRS.includes(name));
    if (at < 0 || include.has(names[at]!)) return true;
    excluded.add(`${rel}/${names.slice(0, at + 1).join('/')}`);
    return false;
  });
  for (const folder of excluded) out.skipped.push({ path: show(folder), reason: 'excluded-folder' });
  await listUntracked(paths, 'ignored', root, show, options, out, seen);
  for (const folder of unreadableFolders(result.stderr))
    out.skipped.push({ path: show(folder.path), reason: 'unreadable-folder', detail: folder.detail });
}

/** Files git lists as not tracked, as `state`; a folder it lists whole is another repository, asked on its own. */
async function listUntracked(
  paths: readonly string[],
  state: GitField,
  root: string,
  show: (path: string) => string,
  options: ListOptions,
  out: Listing,
  seen: Set<string> | null,
): Promise<void> {
  for (const path of paths) {
    const full = under(root, path);
    if (path.endsWith('/')) {
      await listTarget(full.replace(/[\\/]$/, ''), show(path).replace(/[\\/]$/, ''), options, out, seen);
      continue;
    }
    let stat;
    try {
      stat = lstatSync(full);
    } catch (error) {
      out.skipped.push({ path: show(path), ...skipOf(error) });
      continue;
    }
    if (stat.isSymbolicLink()) out.skipped.push({ path: show(path), reason: 'symlink' });
    else if (!stat.isFile()) out.skipped.push({ path: show(path), reason: 'special-file', detail: specialKind(stat) });
    else if (first(seen, full)) {
      out.files.push({ path: full, shown: show(path), state, regular: true });
    }
  }
}

/** The real path behind a link to a file, when it can be had (a link that changes meanwhile is read as it is). */
function linkTarget(path: string): { linkTo?: string } {
  try {
    return { linkTo: realpathSync.native(path) };
  } catch {
    return {};
  }
}

function walk(
  dir: string,
  shown: string,
  state: GitField,
  include: ReadonlySet<string>,
  out: Listing,
  seen: Set<string> | null,
): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const failure = skipOf(error);
    out.skipped.push({
      path: shown,
      ...(failure.reason === 'unreadable' ? { ...failure, reason: 'unreadable-folder' } : failure),
    });
    return;
  }
  // Plain concatenation: both are already normal, and this runs once per file.
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const sameName = shown === dir;
  const shownPrefix = sameName ? prefix : shown.endsWith(sep) ? shown : shown + sep;
  // The folder's files from the last subfolder walked on, or from the start.
  let plain: FolderFiles | undefined;
  for (const entry of entries) {
    if (entry.isFile() && seen === null) {
      // The usual case, and the one made cheap: a name kept, no path made (see FolderFiles).
      if (plain === undefined) out.files.push((plain = { prefix, shownPrefix, state, names: [] }));
      plain.names.push(entry.name);
      continue;
    }
    const path = prefix + entry.name;
    // One string for both where they are the same (the usual case): a second per file is garbage to collect.
    const show = sameName ? path : shownPrefix + entry.name;
    // Whatever goes into the listing now goes after the files kept so far.
    plain = undefined;
    if (entry.isDirectory()) {
      if (DEFAULT_EXCLUDED_DIRS.includes(entry.name) && !include.has(entry.name))
        out.skipped.push({ path: show, reason: 'excluded-folder' });
      else walk(path, show, state, include, out, seen);
    } else if (entry.isFile()) {
      if (first(seen, path)) {
        out.files.push({ path, shown: show, state, regular: true });
      }
    } else if (entry.isSymbolicLink()) {
      // Without git every file is read, through a link too; a linked folder is not walked (it may loop).
      let stat;
      try {
        stat = statSync(path);
      } catch (error) {
        const failure = skipOf(error);
        out.skipped.push({ path: show, ...(failure.reason === 'missing' ? { reason: 'broken-symlink' } : failure) });
        continue;
      }
      if (stat.isDirectory()) out.skipped.push({ path: show, reason: 'folder-symlink' });
      else if (!stat.isFile()) out.skipped.push({ path: show, reason: 'special-file', detail: specialKind(stat) });
      else if (first(seen, path)) {
        out.files.push({ path, shown: show, state, regular: true, ...linkTarget(path) });
      }
    } else {
      out.skipped.push({ path: show, reason: 'special-file', detail: specialKind(entry) });
    }
  }
}
