import { describe, expect, it } from 'vitest';
import { fitInsertion, fitReplacement, proposeChange } from '../../../src/core/chat/codeProposal.ts';

describe('Replace keeps the selection’s line endings', () => {
  it('adds no blank line when the selection does not end with a line break', () => {
    // A fenced block's text always ends with "\n"; the old Replace put it in as it was.
    expect(fitReplacement('const b = 2;\n', 'const a = 1;', '\n')).toBe('const b = 2;');
  });

  it('keeps one line break when the selection took whole lines', () => {
    expect(fitReplacement('one\ntwo\n', 'a\nb\n', '\n')).toBe('one\ntwo\n');
    expect(fitReplacement('one\ntwo', 'a\nb\n', '\n')).toBe('one\ntwo\n');
  });

  it("uses the document's CRLF inside the block too", () => {
    expect(fitReplacement('one\ntwo\n', 'a\r\nb\r\n', '\r\n')).toBe('one\r\ntwo\r\n');
    expect(fitReplacement('one\r\ntwo\r\n', 'a', '\n')).toBe('one\ntwo');
    expect(fitInsertion('x\ny\n', '\r\n')).toBe('x\r\ny\r\n');
  });
});

describe('Apply proposes the file with the block in place', () => {
  const doc = 'function f() {\n  return 1;\n}\n';

  it('replaces the selection', () => {
    const start = doc.indexOf('return 1;');
    const proposal = proposeChange(doc, start, start + 'return 1;'.length, 'return 2;\n', '\n');
    expect(proposal.text).toBe('function f() {\n  return 2;\n}\n');
    expect(proposal.replacement).toBe('return 2;');
    expect(proposal.start).toBe(start);
  });

  it('at a caret, inserts whole lines before the caret line without splitting it', () => {
    const caret = doc.indexOf('1;');
    const proposal = proposeChange(doc, caret, caret, '  // why\n', '\n');
    expect(proposal.text).toBe('function f() {\n  // why\n  return 1;\n}\n');
    expect(proposal.start).toBe(proposal.end);
  });

  it('at the end of a file without a final line break, the caret line stays whole', () => {
    const proposal = proposeChange('a\nb', 3, 3, 'x', '\n');
    expect(proposal.text).toBe('a\nx\nb');
  });

  it('keeps CRLF files CRLF', () => {
    const crlf = 'a\r\nb\r\n';
    expect(proposeChange(crlf, 0, 3, 'z\n', '\r\n').text).toBe('z\r\nb\r\n');
  });
});
