// The key-leak check from outside: after the run, no key it used may appear in
// any file VS Code or the browser wrote (user data, logs, workspace storage,
// the browser's IndexedDB where code-server keeps workspace and webview state,
// the export). Files are read as bytes: a state database holds text in pages,
// as one-byte (latin1) or two-byte (UTF-16LE) strings, and a compressed block
// may split a key, so each key's random tail is looked for too.
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface LeakHit {
  path: string;
  /** The key as logs may show it: masked. */
  key: string;
  encoding: 'latin1' | 'utf16le';
}

export interface LeakScan {
  /** Each root with how many files were read under it. */
  roots: { path: string; files: number }[];
  hits: LeakHit[];
}

const mask = (key: string) => `${key.slice(0, 9)}…${key.slice(-4)}`;

function needles(keys: readonly string[]): { key: string; bytes: Buffer; encoding: LeakHit['encoding'] }[] {
  const out: { key: string; bytes: Buffer; encoding: LeakHit['encoding'] }[] = [];
  for (const key of new Set(keys)) {
    for (const text of [key, key.slice(-24)]) {
      out.push(
        { key, bytes: Buffer.from(text, 'latin1'), encoding: 'latin1' },
        { key, bytes: Buffer.from(text, 'utf16le'), encoding: 'utf16le' },
      );
    }
  }
  return out;
}

function files(root: string): string[] {
  if (!existsSync(root)) return [];
  const stat = lstatSync(root);
  if (stat.isFile()) return [root];
  if (!stat.isDirectory()) return [];
  // Links are not followed: what a link points at is scanned where it lives, or is not ours.
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Every file under each root (a root may be a single file), searched for every key. */
export function scanForKeys(roots: readonly string[], keys: readonly string[]): LeakScan {
  const wanted = needles(keys.filter((k) => k.length >= 24));
  const scan: LeakScan = { roots: [], hits: [] };
  for (const root of roots) {
    const list = files(root);
    scan.roots.push({ path: root, files: list.length });
    for (const path of list) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      const seen = new Set<string>();
      for (const needle of wanted) {
        if (seen.has(needle.key) || bytes.indexOf(needle.bytes) === -1) continue;
        seen.add(needle.key);
        scan.hits.push({ path, key: mask(needle.key), encoding: needle.encoding });
      }
    }
  }
  return scan;
}

/** Which of the plain markers (no keys) appear under the roots: proof the scan reads where the state really is. */
export function markersFound(roots: readonly string[], markers: readonly string[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    for (const path of files(root)) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      for (const marker of markers) {
        if (bytes.indexOf(Buffer.from(marker, 'latin1')) !== -1 || bytes.indexOf(Buffer.from(marker, 'utf16le')) !== -1)
          found.add(marker);
      }
    }
  }
  return [...found];
}

/**
 * Plain words the run leaves in state that VS Code writes to disk: a draft in
 * the panel's box (webview state) by the UI steps, a conversation turn
 * (workspace state) by the in-host suite. Finding them on disk proves the
 * leak check reads where that state lives.
 */
export const PROBES = {
  draft: 'keyward-e2e-draft-probe',
  turn: 'keyward-e2e-turn-probe',
} as const;
