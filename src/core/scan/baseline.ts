// A baseline: the keys a repository already held when a team adopted Keyward, so a scan can
// fail only on what is new. An entry is a key's fingerprint and the file it is in, not the
// line: as in detect-secrets, whose PotentialSecret compares filename, secret hash and type and
// leaves the line out "because line numbers are subject to change"
// (Yelp/detect-secrets detect_secrets/core/potential_secret.py). gitleaks compares the line too
// (gitleaks/gitleaks detect/baseline.go IsNew), so a key that moves down a line is new there.
// The same key copied into another file is new: it has spread. No key is written, only the
// fingerprint and the masked form a report already shows.
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { readCommittedFile } from './committedFile.ts';

export const BASELINE_VERSION = 1;

/** The baseline the pre-commit hook and the CI action use when the repository has committed one. */
export const DEFAULT_BASELINE = '.keyward-baseline.json';

/** A baseline larger than this is refused unread (16 MiB: some 100,000 entries). */
export const BASELINE_MAX_BYTES = 16 << 20;

export interface BaselineEntry {
  /** '/'-separated, relative to the repository root (or the folder scanned outside one). */
  path: string;
  fingerprint: string;
  ruleId: string;
  masked: string;
}

export interface Baseline {
  entries: readonly BaselineEntry[];
}

/** Why a baseline could not be used: the scan stops (exit 2) rather than call everything new or old. */
export class BaselineError extends Error {}

const FINGERPRINT = /^[0-9a-f]{16}$/;

function keyOf(path: string, fingerprint: string): string {
  return `${fingerprint}\0${path}`;
}

/** Reads and checks a baseline file; anything unexpected is a BaselineError naming what and where. */
export function readBaseline(file: string): Baseline {
  // Read as .keywardignore is: no link followed, a regular file only, and a bounded one.
  const read = readCommittedFile(file, BASELINE_MAX_BYTES);
  if ('missing' in read) throw new BaselineError(`${file}: could not be read (ENOENT)`);
  if ('problem' in read) throw new BaselineError(`${file}: ${read.problem}`);
  const { text } = read;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new BaselineError(`${file}: not JSON; write it again with keyward scan --write-baseline ${file}`);
  }
  const record = data as { keyward?: unknown; version?: unknown; findings?: unknown };
  if (typeof data !== 'object' || data === null || record.keyward !== 'baseline')
    throw new BaselineError(`${file}: not a Keyward baseline (no "keyward": "baseline")`);
  if (record.version !== BASELINE_VERSION)
    throw new BaselineError(
      `${file}: baseline version ${JSON.stringify(record.version)} is not one this keyward reads (${BASELINE_VERSION})`,
    );
  if (!Array.isArray(record.findings)) throw new BaselineError(`${file}: "findings" is not a list`);
  const entries = record.findings.map((item: unknown, index): BaselineEntry => {
    const e = item as Partial<Record<keyof BaselineEntry, unknown>> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.path !== 'string' ||
      typeof e.fingerprint !== 'string' ||
      !FINGERPRINT.test(e.fingerprint)
    )
      throw new BaselineError(`${file}: findings[${index}] needs a "path" and a 16-hex "fingerprint"`);
    return {
      path: e.path,
      fingerprint: e.fingerprint,
      ruleId: typeof e.ruleId === 'string' ? e.ruleId : '',
      masked: typeof e.masked === 'string' ? e.masked : '',
    };
  });
  return { entries };
}

/** Answers "was this key in this file when the baseline was written?". */
export class BaselineIndex {
  private readonly keys: Set<string>;
  constructor(baseline: Baseline) {
    this.keys = new Set(baseline.entries.map((e) => keyOf(e.path, e.fingerprint)));
  }
  has(path: string, fingerprint: string): boolean {
    return this.keys.has(keyOf(path, fingerprint));
  }
}

/** One entry per key and file: a second copy of a key in the same file is the same exposure. */
export function uniqueEntries(entries: readonly BaselineEntry[]): BaselineEntry[] {
  const unique = new Map<string, BaselineEntry>();
  for (const e of entries) unique.set(keyOf(e.path, e.fingerprint), e);
  return [...unique.values()];
}

/** The file's text: sorted and without duplicates, so it diffs well when written again. */
export function baselineText(entries: readonly BaselineEntry[]): string {
  const findings = uniqueEntries(entries)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.fingerprint < b.fingerprint ? -1 : 1))
    .map(({ path, fingerprint, ruleId, masked }) => ({ path, fingerprint, ruleId, masked }));
  return (
    JSON.stringify(
      {
        keyward: 'baseline',
        version: BASELINE_VERSION,
        about:
          'Keys found when this baseline was written, by fingerprint (first 16 hex digits of the SHA-256 of the key) and file; no key is stored. keyward scan --baseline FILE reports only keys not listed here.',
        findings,
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * Writes the baseline without following a link: below the current folder every
 * component is checked (core/safeWrite.ts), elsewhere the file itself.
 */
export async function writeBaseline(file: string, cwd: string, entries: readonly BaselineEntry[]): Promise<number> {
  // Loaded here: safe writes need hashing and fs/promises, which a scan that writes nothing never loads.
  const { safeTarget, writeTarget } = await import('../safeWrite.ts');
  const path = resolve(cwd, file);
  const rel = relative(cwd, path);
  const inside = rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  const target = inside ? await safeTarget(cwd, rel) : await safeTarget(dirname(path), basename(path));
  // Committed and read by everyone: a normal file's mode, not a secret's.
  await writeTarget(target, baselineText(entries), 0o644);
  return uniqueEntries(entries).length;
}
