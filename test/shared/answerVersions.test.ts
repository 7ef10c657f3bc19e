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

  it(`keeps at most ${MAX_VERSIONS}, the oldest dropped`, () => {
    let turn = answer('a0', 'v0');
    for (let i = 1; i <= MAX_VERSIONS + 2; i++) turn = addVersion(turn, answer(`a${i}`, `v${i}`));
    const all = answerVersions(turn);
    expect(all).toHaveLength(MAX_VERSIONS);
    expect(all[0]!.text).toBe('v3');
    expect(all.every((v) => v.versions === undefined)).toBe(true);
  });
});
