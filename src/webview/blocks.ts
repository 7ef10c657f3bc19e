// Splits streamed markdown into finished blocks and the tail still growing, so a
// long answer is not re-rendered whole on every frame. A blank line outside a
// code fence ends a block.
export function splitBlocks(text: string): { done: string[]; tail: string } {
  const done: string[] = [];
  let start = 0;
  let inFence = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && lineEnd < text.length && lineStart > start) {
      done.push(text.slice(start, lineStart));
      start = lineEnd + 1;
    }
    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
  }
  return { done, tail: text.slice(start) };
}
