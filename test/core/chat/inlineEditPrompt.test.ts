// What an inline edit sends, and how its streamed answer becomes lines: code only, a fence a model adds anyway
// dropped, nothing after the closing fence; a follow-up carries the earlier instruction and answer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerLines, inlineEditTurns } from '../../../src/core/chat/inlineEditPrompt.ts';

const lines = (answer: string, cuts: number[] = []) => {
  const splitter = new AnswerLines();
  const out: string[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (answer.length + 1))].sort((a, b) => a - b)) {
    out.push(...splitter.push(answer.slice(at, Math.max(at, cut))));
    at = Math.max(at, cut);
  }
  out.push(...splitter.push(answer.slice(at)), ...splitter.finish());
  return out;
};

describe('the inline edit’s answer as lines', () => {
  it('gives whole lines however the stream is cut, CRLF included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b ', '', '  c();'), { maxLength: 12 }),
        fc.array(fc.nat()),
        (ls, cuts) => {
          const answer = ls.join('\r\n');
          // A last line break ends the last line; it does not start an empty one.
          expect(lines(answer, cuts)).toEqual(ls.at(-1) === '' ? ls.slice(0, -1) : ls);
        },
      ),
    );
  });

  it('drops a leading fence and everything from its closing fence on', () => {
    expect(lines('```js\nconst a = 1;\n```\nThis sets a.\n')).toEqual(['const a = 1;']);
    expect(lines('~~~\nx\n~~~')).toEqual(['x']);
    // A fence inside the code (a Markdown file's) is code when the answer did not open with one.
    expect(lines('# Title\n```\nx\n```')).toEqual(['# Title', '```', 'x', '```']);
  });
});

describe('the inline edit’s request', () => {
  const place = { file: 'src/a.ts', languageId: 'typescript', startLine: 10 };

  it('asks with the file, the first line, the code in a fence it cannot close, and the instruction', () => {
    const [turn, ...rest] = inlineEditTurns('rename x', 'const s = "```";', place);
    expect(rest).toEqual([]);
    expect(turn!.content).toBe(
      'src/a.ts, from line 10:\n````typescript\nconst s = "```";\n````\nInstruction: rename x',
    );
  });

  it('a follow-up carries the earlier instruction, its code and answer, then the code as it is now', () => {
    const turns = inlineEditTurns('make it shorter', 'now', place, {
      instruction: 'add logs',
      code: 'then',
      answer: 'now',
    });
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[0]!.content).toContain('Instruction: add logs');
    expect(turns[0]!.content).toContain('then');
    expect(turns[1]!.content).toBe('now');
    expect(turns[2]!.content).toMatch(/^Follow-up on your last edit: make it shorter\n[^]*```typescript\nnow\n```$/);
  });
});
