// The `#` references of a prompt, without an editor: where they stand, what the prompt box completes, how each
// piece is worded in the text the service receives, the size limit with its message, and `#changes` read from a
// real repository through the one way Keyward runs git (a hostile repository's programs never run).
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_MAX_CHARS,
  contextAttachment,
  problemsText,
  resolvePrompt,
} from '../../../src/core/chat/contextRefs.ts';
import { workingTreeDiff } from '../../../src/core/chat/workingTreeDiff.ts';
import {
  completeRef,
  findContextRefs,
  matchingRefs,
  refCompletionAtEnd,
  refQueryAt,
  withoutContextRefs,
} from '../../../src/shared/contextRefs.ts';
import { composePrompt } from '../../../src/shared/sentText.ts';
import { isWebviewMessage } from '../../../src/shared/protocol.ts';
import { makeHostileRepo, makeRepo, plainGit } from '../../cli/gitFixtures.ts';

describe('finding #references in a prompt', () => {
  it('finds each name at the start, after white space or a bracket, and before punctuation', () => {
    const text = '#file explain (#changes), then #problems.\n#terminal';
    expect(findContextRefs(text).map((t) => [t.name, text.slice(t.start, t.end)])).toEqual([
      ['file', '#file'],
      ['changes', '#changes'],
      ['problems', '#problems'],
      ['terminal', '#terminal'],
    ]);
  });

  it('leaves alone what only looks like one: C#file, #filesystem, #Selection, an issue number', () => {
    expect(findContextRefs('C#file #filesystem #Selection #12 a#changes')).toEqual([]);
  });

  it('takes the references out of the words sent, tidying the spaces they leave', () => {
    expect(withoutContextRefs('Explain #selection and #problems please')).toBe('Explain and please');
    expect(withoutContextRefs('#changes\nReview this')).toBe('Review this');
  });

  it('completes a # typed at the caret, and lists the names that start with what follows it', () => {
    expect(refQueryAt('look at #pr', 11)).toEqual({ start: 8, query: 'pr' });
    expect(refQueryAt('#', 1)).toEqual({ start: 0, query: '' });
    expect(refQueryAt('C#', 2)).toBeUndefined();
    expect(refQueryAt('#file done', 10)).toBeUndefined();
    expect(matchingRefs('')).toEqual(['file', 'selection', 'problems', 'changes', 'terminal']);
    expect(matchingRefs('c')).toEqual(['changes']);
    expect(matchingRefs('x')).toEqual([]);
  });

  it('the inline edit’s box lists references while its text ends in a # word that matches one, and not otherwise', () => {
    expect(refCompletionAtEnd('#')).toEqual({
      start: 0,
      names: ['file', 'selection', 'problems', 'changes', 'terminal'],
    });
    expect(refCompletionAtEnd('tidy this #fi')).toEqual({ start: 10, names: ['file'] });
    expect(refCompletionAtEnd('use #p')).toEqual({ start: 4, names: ['problems'] });
    for (const text of ['', 'tidy', 'tidy #file ', 'C#', '#x', 'tidy #fi done', 'a#fi'])
      expect(refCompletionAtEnd(text), text).toBeUndefined();
    expect(completeRef('tidy this #fi', 10, 'file')).toBe('tidy this #file ');
    expect(completeRef('#', 0, 'problems')).toBe('#problems ');
    // Completed, the text no longer ends in a # word: the list closes and Enter sends.
    expect(refCompletionAtEnd(completeRef('#', 0, 'problems'))).toBeUndefined();
  });
});

describe('resolving a prompt', () => {
  const ids = () => {
    let n = 0;
    return () => `id${++n}`;
  };

  it('reads each reference once, in order, and sends the words without them', async () => {
    const asked: string[] = [];
    const resolved = await resolvePrompt(
      'Fix #problems in #file, see #problems',
      async (name) => {
        asked.push(name);
        return name === 'file'
          ? { name, label: 'src/a.ts', languageId: 'typescript', text: 'let a = 1;\nlet b;', startLine: 1, endLine: 2 }
          : { name, label: 'src/a.ts', languageId: 'text', text: "2:5 error [ts 2304] Cannot find name 'c'." };
      },
      ids(),
    );
    expect(asked).toEqual(['problems', 'file']);
    expect(resolved.prompt).toBe('Fix in , see');
    expect(resolved.refused).toEqual([]);
    expect(resolved.attachments.map((a) => [a.id, a.context, a.fileName, a.startLine, a.endLine])).toEqual([
      ['id1', 'problems', 'src/a.ts', 1, 1],
      ['id2', undefined, 'src/a.ts', 1, 2],
    ]);
  });

  it('refuses a piece over the limit by name, with its size and the limit, rather than cutting it', async () => {
    const big = 'x'.repeat(CONTEXT_MAX_CHARS + 1);
    const resolved = await resolvePrompt(
      'Review #changes',
      async (name) => ({ name, label: 'HEAD', languageId: 'diff', text: big }),
      ids(),
    );
    expect(resolved.attachments).toEqual([]);
    expect(resolved.refused).toEqual([
      { name: 'changes', why: 'tooLarge', chars: CONTEXT_MAX_CHARS + 1, limit: CONTEXT_MAX_CHARS },
    ]);
  });

  it('passes on what the host could not read', async () => {
    const resolved = await resolvePrompt('#terminal why?', async (name) => ({ name, why: 'noTerminal' }), ids());
    expect(resolved.refused).toEqual([{ name: 'terminal', why: 'noTerminal' }]);
  });
});

describe('the text sent', () => {
  it('says what each piece is above it, in a fence no backtick run inside can close', () => {
    const changes = contextAttachment(
      { name: 'changes', label: 'HEAD', languageId: 'diff', text: '+ ```js\n+ x\n+ ```' },
      'c1',
    );
    const terminal = contextAttachment({ name: 'terminal', label: 'bash', languageId: 'text', text: '$ ls' }, 't1');
    const problems = contextAttachment(
      { name: 'problems', label: 'a.ts', languageId: 'text', text: '1:1 error x', startLine: 3, endLine: 9 },
      'p1',
    );
    if ('why' in changes || 'why' in terminal || 'why' in problems) throw new Error('refused');
    expect(composePrompt('Review', [changes, terminal, problems])).toBe(
      [
        'Review',
        'Changes in the working tree (git diff HEAD):\n````diff\n+ ```js\n+ x\n+ ```\n````',
        'Selected in the terminal bash:\n```text\n$ ls\n```',
        'Problems in a.ts, lines 3-9:\n```text\n1:1 error x\n```',
      ].join('\n\n'),
    );
  });

  it('lists problems by line, with their source and code, one line each', () => {
    expect(
      problemsText([
        { line: 9, column: 2, severity: 'warning', message: 'Unused\n  variable', source: 'eslint', code: 'no-unused' },
        { line: 2, column: 5, severity: 'error', message: "Cannot find name 'c'.", source: 'ts', code: '2304' },
      ]),
    ).toBe("2:5 error [ts 2304] Cannot find name 'c'.\n9:2 warning [eslint no-unused] Unused variable");
  });

  it('the webview may ask for a reference by its name only, and a chip may say which reference it is', () => {
    expect(isWebviewMessage({ type: 'context/attach', name: 'changes' })).toBe(true);
    expect(isWebviewMessage({ type: 'context/attach', name: 'env' })).toBe(false);
    const attachment = { id: 'a1', fileName: 'HEAD', languageId: 'diff', startLine: 1, endLine: 1, text: '' };
    const send = { type: 'chat/send', requestId: 'r1', service: 'router', model: 'm', prompt: 'p' };
    expect(isWebviewMessage({ ...send, attachments: [{ ...attachment, context: 'changes' }] })).toBe(true);
    expect(isWebviewMessage({ ...send, attachments: [{ ...attachment, context: 'secrets' }] })).toBe(false);
  });
});

describe('#changes from git', () => {
  it('is the diff against HEAD, staged and not; with no change it says so', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'first');
    expect(await workingTreeDiff(repo.dir)).toEqual({ why: 'noChanges' });
    repo.write('a.txt', 'one\ntwo\n');
    repo.write('b.txt', 'staged\n');
    repo.git('add', 'b.txt');
    const read = await workingTreeDiff(repo.dir);
    if (!('diff' in read)) throw new Error(JSON.stringify(read));
    expect(read.diff).toContain('+two');
    expect(read.diff).toContain('+staged');
  });

  it('in a repository without a commit, is what is staged and what is not', async () => {
    const repo = makeRepo();
    repo.write('new.txt', 'first line\n');
    repo.git('add', '.');
    const read = await workingTreeDiff(repo.dir);
    if (!('diff' in read)) throw new Error(JSON.stringify(read));
    expect(read.diff).toContain('+first line');
  });

  it('runs none of the programs a hostile repository names (clean filter, textconv, external diff, pager, fsmonitor)', async () => {
    const repo = makeHostileRepo({ 'a.txt': 'one\n' });
    repo.write('a.txt', 'one\nchanged\n');
    // Plain git runs them: the fixture is armed.
    plainGit(repo.dir, ['diff', 'HEAD']);
    expect(repo.ran()).not.toBe('');
    repo.reset();
    const read = await workingTreeDiff(repo.dir);
    expect(repo.ran()).toBe('');
    if (!('diff' in read)) throw new Error(JSON.stringify(read));
    expect(read.diff).toContain('+changed');
  });
});
