// The key alphabet and the edges of a token, on text: shared by the text scan and its hit collectors.
// Plain functions on char codes, so the engine inlines them into the loops that call them.

export function isKeyChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 45 ||
    code === 95
  );
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * The token may start here: nothing of the key alphabet before it, or the tail
 * of an escape (\n, \t, %20, \u0022, \x22) that glued a letter or digit to it.
 */
export function boundaryBefore(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  if (!isKeyChar(before)) return true;
  if (start >= 2 && text.charCodeAt(start - 2) === 92 && 'nrtbfv0'.includes(text[start - 1]!)) return true;
  if (start >= 3 && text.charCodeAt(start - 3) === 37 && isHex(before) && isHex(text.charCodeAt(start - 2)))
    return true;
  if (
    start >= 6 &&
    text.charCodeAt(start - 6) === 92 &&
    text[start - 5] === 'u' &&
    [2, 3, 4].every((i) => isHex(text.charCodeAt(start - i))) &&
    isHex(before)
  )
    return true;
  if (
    start >= 4 &&
    text.charCodeAt(start - 4) === 92 &&
    text[start - 3] === 'x' &&
    isHex(text.charCodeAt(start - 2)) &&
    isHex(before)
  )
    return true;
  return false;
}

export function boundaryAfter(text: string, end: number): boolean {
  return end >= text.length || !isKeyChar(text.charCodeAt(end));
}

/** UTF-8 bytes of a part of the text (a lone surrogate counts 3, as the encoder writes U+FFFD). */
export function utf8Length(text: string, from: number, to: number): number {
  // Native: a character loop here was most of the cost of scanning a large text with keys in it.
  return to - from < 64 ? jsUtf8Length(text, from, to) : Buffer.byteLength(text.slice(from, to), 'utf8');
}

function jsUtf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
