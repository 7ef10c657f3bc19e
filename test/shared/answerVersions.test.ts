// A regenerated answer's versions (issue 31 item 4): the old answer stays reachable, in order, capped.
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src/shared/protocol.ts';
import {
  MAX_VERSIONS,
  addVersion,
  answerVersions,
  showVersion,
  versionPosition,
} from '../../src/shared/answerVersions.ts';

const answer = (id: string, text: string): ChatTurn => ({
  id,
  role: 'assistant',
  text,
  service: 'router',
  model: 'm',
  status: 'done',
});

describe('answer versions', () => {
  it('shows the newest, keeps the older in order, and pages between them under one id', () => {
    const two = addVersion(answer('a1', 'first'), answer('a2', 'second'));
    expect(two.text).toBe('second');
    expect(versionPosition(two)).toEqual({ index: 1, count: 2 });
    const three = addVersion(two, answer('a3', 'third'));
    expect(answerVersions(three).map((v) => v.text)).toEqual(['first', 'second', 'third']);
    const back = showVersion(three, 0);
    expect(back).toMatchObject({ id: 'a3', text: 'first', versionIndex: 0 });
    expect(answerVersions(back).map((v) => v.text)).toEqual(['first', 'second', 'third']);
    // Regenerating while an older one is shown adds at the end.
    expect(answerVersions(addVersion(back, answer('a4', 'fourth'))).map((v) => v.text)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
    expect(versionPosition(answer('x', 'alone'))).toEqual({ index: 0, count: 1 });
  });

  it('keeps no failure that brought nothing to read: Retry after an error just answers', () => {
    const failed = { ...answer('a1', ''), status: 'error' as const };
    const retried = addVersion(failed, answer('a2', 'fine'));
    expect(versionPosition(retried)).toEqual({ index: 0, count: 1 });
    const broke = { ...answer('a1', 'half'), status: 'interrupted' as const };
    expect(versionPosition(addVersion(broke, answer('a2', 'whole')))).toEqual({ index: 1, count: 2 });
  });

  it(`keeps at most ${MAX_VERSIONS}, the oldest dropped`, () => {
    let turn = answer('a0', 'v0');
    for (let i = 1; i <= MAX_VERSIONS + 2; i++) turn = addVersion(turn, answer(`a${i}`, `v${i}`));
    const all = answerVersions(turn);
    expect(all).toHaveLength(MAX_VERSIONS);
    expect(all[0]!.text).toBe('v3');
    expect(all.every((v) => v.versions === undefined)).toBe(true);
  });
});
