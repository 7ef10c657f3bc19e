// What a history scan cannot read, found before it starts: history cut short (a shallow clone, a graft file) and
// objects a partial clone never fetched. Each is named, so a scan that missed them is never called clean.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { gitMessage, runGit } from './git.ts';
import type { Skipped } from './report.ts';

/** git failed while reading history: the scan is an error, never "no key found". */
export class HistoryError extends Error {}

/**
 * History git log would cut short: a shallow clone holds only the last commits,
 * and a graft file (deprecated, still honoured, GIT_NO_REPLACE_OBJECTS or not)
 * can give any commit other parents, hiding the ones before it.
 */
export async function cutShort(root: string): Promise<Skipped[]> {
  const result = await runGit(['rev-parse', '--is-shallow-repository', '--git-path', 'info/grafts'], root);
  if (result.code !== 0) return [];
  const [isShallow = '', grafts = ''] = result.stdout.split('\n');
  const skipped: Skipped[] = [];
  if (isShallow.trim() === 'true') skipped.push({ path: '', reason: 'shallow-history' });
  const graftFile = isAbsolute(grafts) ? grafts : join(root, grafts);
  if (grafts && existsSync(graftFile) && statSync(graftFile).size > 0)
    skipped.push({ path: '', reason: 'grafted-history' });
  return skipped;
}

/**
 * Objects a partial clone never fetched (lazy fetching is off, see git.ts),
 * each named by the path and commit that hold it. Only asked of a repository
 * with a promisor remote: elsewhere a missing object is corruption, and git log fails.
 */
export async function notFetched(root: string): Promise<Skipped[]> {
  const promisor = await runGit(
    ['config', '--get-regexp', '^(extensions\\.partialclone|remote\\..*\\.promisor)$'],
    root,
  );
  if (promisor.code !== 0 || promisor.stdout.trim() === '') return [];
  const objects = await runGit(['rev-list', '--all', '--objects', '--missing=print'], root);
  if (objects.code !== 0) throw new HistoryError(`git rev-list failed: ${gitMessage(objects.stderr) || 'no message'}`);
  const missing = new Set(objects.stdout.split('\n').flatMap((line) => (line.startsWith('?') ? [line.slice(1)] : [])));
  if (missing.size === 0) return [];
  // Which file and commit each missing blob is: the raw diff names blobs without reading them.
  const raw = await runGit(
    ['log', '--all', '--reverse', '--topo-order', '--raw', '-z', '--no-abbrev', '--no-renames', '--format=%x00%H'],
    root,
  );
  const skipped: Skipped[] = [];
  let commit = '';
  const fields = raw.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!.replace(/^\n+/, '');
    if (/^[0-9a-f]{40,64}$/.test(field)) commit = field;
    else if (field.startsWith(':')) {
      const oid = field.split(' ')[3] ?? '';
      const path = fields[++i] ?? '';
      if (missing.delete(oid))
        skipped.push({ path, reason: 'not-fetched', detail: `object ${oid} of commit ${commit.slice(0, 12)}` });
    }
  }
  for (const oid of missing) skipped.push({ path: '', reason: 'not-fetched', detail: `object ${oid}` });
  return skipped;
}
