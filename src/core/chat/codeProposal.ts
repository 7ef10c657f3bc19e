// How a code block from an answer lands in a file: pure text functions, so
// Replace and Apply are tested without an editor.

/** The line ending a document uses. */
export type Eol = '\n' | '\r\n';

/**
 * The block's text shaped for the place it replaces: the document's line
 * endings, and a final line break only where the replaced text had one. A
 * fenced block always ends with a line break; put in place of a selection that
 * does not, it would add a blank line.
 */
export function fitReplacement(code: string, replaced: string, eol: Eol): string {
  const body = code.replace(/\r?\n$/, '').replace(/\r?\n/g, eol);
  return /\r?\n$/.test(replaced) ? `${body}${eol}` : body;
}

/** The block's text shaped for insertion at a caret: the document's line endings, as it came. */
export function fitInsertion(code: string, eol: Eol): string {
  return code.replace(/\r?\n/g, eol);
}

/** A change proposed to a file: the whole new text, and what it replaces (offsets into the old text). */
export interface Proposal {
  text: string;
  start: number;
  end: number;
  replacement: string;
}

/**
 * The file as it would be with the block applied: in place of the selection
 * when there is one, else inserted at the caret as whole lines.
 */
export function proposeChange(document: string, start: number, end: number, code: string, eol: Eol): Proposal {
  if (end > start) {
    const replacement = fitReplacement(code, document.slice(start, end), eol);
    return { text: document.slice(0, start) + replacement + document.slice(end), start, end, replacement };
  }
  // At a caret: the block goes in as whole lines before the caret's line, never splitting it.
  const lineStart = document.lastIndexOf('\n', start - 1) + 1;
  let replacement = fitInsertion(code, eol);
  if (!replacement.endsWith(eol)) replacement += eol;
  return {
    text: document.slice(0, lineStart) + replacement + document.slice(lineStart),
    start: lineStart,
    end: lineStart,
    replacement,
  };
}
