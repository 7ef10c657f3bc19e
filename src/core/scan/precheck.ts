// Where in a file's bytes a documented key prefix may end, sixteen bytes at a time in WebAssembly
// (precheck.wat). The scanner asks this of every byte of every file, and most files hold no prefix:
// a native search per "-" or "_" (one every few dozen bytes of source) was the larger part of a
// scan's CPU, and its JavaScript loop had to be compiled again in every process before it ran
// fast. WebAssembly runs fast from the first file. A file the CLI reads goes straight into the
// module's memory (readRoom); any other buffer is copied in, a megabyte at a time.
// It stays because it earns its keep (house style: 15 % on every corpus): `keyward scan --no-git` of the bench's
// corpus (10,675 files, 55 MB) took 0.75× the wall time and 0.79× the CPU of the same build with the loop below, and
// of the same files with "sk-" in each 0.84× and 0.85× (Node 24, 11 interleaved pairs each).
import { lazy } from '../lazy.ts';
import { PRECHECK_WASM_BASE64 } from './precheckWasm.ts';

/** Where readRoom starts: the 16 bytes before it stay zero, so no prefix seems to end in its first bytes. */
const READ_AT = 16;
/** How much a file read into readRoom can hold at once (the CLI's read buffer). */
export const READ_ROOM = 16 << 20;
/** Where other buffers are copied in, a piece at a time, with the two bytes before each piece. */
const COPY_AT = READ_AT + READ_ROOM + 16;
const COPY_ROOM = 1 << 20;

interface Module {
  memory: Uint8Array;
  next(at: number, end: number): number;
  newlines(at: number, end: number): number;
}

function instantiate(): Module | undefined {
  try {
    const bytes = Buffer.from(PRECHECK_WASM_BASE64, 'base64');
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const { memory, next, newlines } = instance.exports as {
      memory: WebAssembly.Memory;
      next: Module['next'];
      newlines: Module['newlines'];
    };
    // Room past each region's end for the 15 bytes a load may read beyond it.
    if (memory.buffer.byteLength < COPY_AT + COPY_ROOM + 16) return undefined;
    return { memory: new Uint8Array(memory.buffer), next, newlines };
  } catch {
    // An engine without WebAssembly SIMD (or without WebAssembly, as under --jitless): the loop below.
    return undefined;
  }
}

// Made on first use: the editor scans text, not bytes, and may never need it (17 MB of address space; a page
// is only memory once a file's bytes reach it). Undefined where WebAssembly cannot run it: the loops below.
const precheckModule = lazy(instantiate);

/**
 * A buffer the CLI reads files into, inside the module's memory, so the pre-check needs no copy. Its
 * contents stay valid until the next read into it; the pre-check of other buffers never writes there.
 */
export function readRoom(): Buffer {
  const made = precheckModule();
  return made ? Buffer.from(made.memory.buffer, READ_AT, READ_ROOM) : Buffer.allocUnsafe(READ_ROOM);
}

/**
 * The search under way: the buffer, the module that searches it (undefined: the loop), and where its bytes are in
 * the module's memory ([from, to) of it at `base`). One object for the module, reset by beginCandidates, so that a
 * tree of small files allocates nothing here and the object keeps one shape (as literalPrecheck.ts's `run`).
 */
const search: { bytes: Uint8Array; wasm: Module | undefined; from: number; to: number; base: number } = {
  bytes: new Uint8Array(0),
  wasm: undefined,
  from: 0,
  to: 0,
  base: 0,
};

/** Whether the buffer lies in the module's own memory (readRoom). */
function inModule(made: Module, buffer: Uint8Array): boolean {
  return buffer.buffer === made.memory.buffer;
}

/** Starts a search of `buffer`; nextCandidate then walks it. */
export function beginCandidates(buffer: Uint8Array): void {
  const made = precheckModule();
  search.bytes = buffer;
  search.wasm = made;
  search.from = 0;
  search.to = 0;
  if (made && inModule(made, buffer)) {
    // Already in the module's memory (readRoom): searched in place.
    search.base = buffer.byteOffset;
    search.to = buffer.length;
  }
}

/** Copies the piece of the buffer that starts at `at` into the module's memory. */
function copyPiece(memory: Uint8Array, at: number): void {
  const { bytes } = search;
  search.from = at;
  search.to = Math.min(bytes.length, at + COPY_ROOM);
  search.base = COPY_AT;
  memory[COPY_AT - 2] = at >= 2 ? bytes[at - 2]! : 0;
  memory[COPY_AT - 1] = at >= 1 ? bytes[at - 1]! : 0;
  memory.set(bytes.subarray(at, search.to), COPY_AT);
}

/**
 * The first index at or after `at` where a prefix's last byte may be ("-", "_", or the "a" of
 * "AIza", after the two bytes its patterns need), or -1. A false alarm is possible ("sk/"); a miss
 * is not: the caller checks each index against the bytes themselves.
 */
export function nextCandidate(at: number): number {
  const { wasm } = search;
  if (!wasm) return nextInJs(at);
  for (;;) {
    if (at >= search.bytes.length) return -1;
    if (at < search.from || at >= search.to) copyPiece(wasm.memory, at);
    const found = wasm.next(search.base + at - search.from, search.base + search.to - search.from);
    if (found !== -1) return found - search.base + search.from;
    if (search.to >= search.bytes.length) return -1;
    at = search.to;
  }
}

/**
 * By a byte that ends a prefix, bits of the patterns it can end (as in precheck.wat); by the byte
 * before and the one before that, the patterns they can be part of.
 */
const LAST = new Uint8Array(256);
const BEFORE = new Uint8Array(256);
const TWO_BEFORE = new Uint8Array(256);
LAST[0x2d] = 0b00000111;
LAST[0x5f] = 0b01111001;
LAST[0x61] = 0b10000000;
[...'kixfw8pz'].forEach((c, bit) => (BEFORE[c.charCodeAt(0)] = 1 << bit));
[...'salhfrgI'].forEach((c, bit) => (TWO_BEFORE[c.charCodeAt(0)] = 1 << bit));

/** nextCandidate without WebAssembly: the same patterns, a byte at a time. */
function nextInJs(at: number): number {
  const { bytes } = search;
  for (let i = Math.max(at, 2); i < bytes.length; i++) {
    const last = LAST[bytes[i]!]!;
    if (last !== 0 && (last & BEFORE[bytes[i - 1]!]! & TWO_BEFORE[bytes[i - 2]!]!) !== 0) return i;
  }
  return -1;
}

/**
 * How many "\n" bytes buffer[start, end) holds (the line numbers of a file scanned in windows), sixteen at a time in
 * WebAssembly: as fast from the first window as when the engine has optimised a loop, which a short scan never
 * gets to (the JavaScript loop unoptimised was a sixth of a scan of node_modules). A buffer outside the module's
 * memory is copied into its copy room a piece at a time; the candidate search's piece there is then gone, and
 * nextCandidate copies it again when asked.
 */
export function newlinesIn(buffer: Uint8Array, start: number, end: number, inJs = false): number {
  const made = inJs ? undefined : precheckModule();
  if (!made) return newlinesInJs(buffer, start, end);
  if (inModule(made, buffer)) return made.newlines(buffer.byteOffset + start, buffer.byteOffset + end);
  if (search.base === COPY_AT) search.from = search.to = 0;
  let count = 0;
  for (let at = start; at < end; at += COPY_ROOM) {
    const pieceEnd = Math.min(end, at + COPY_ROOM);
    made.memory.set(buffer.subarray(at, pieceEnd), COPY_AT);
    count += made.newlines(COPY_AT, COPY_AT + pieceEnd - at);
  }
  return count;
}

/**
 * newlinesIn without WebAssembly: four bytes a step (a zero byte of word ^ 0x0a0a0a0a marks one); a native search
 * per newline was most of the time of a large source file's windows, which hold one every 40 bytes.
 */
function newlinesInJs(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  let i = from;
  for (; i < to && (bytes.byteOffset + i) % 4 !== 0; i++) if (bytes[i] === 10) count++;
  if (i >= to) return count;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (to - i) >> 2);
  for (let w = 0; w < words.length; w++) {
    const x = words[w]! ^ 0x0a0a0a0a;
    // 0x80 in each byte of x that is zero, and only there (no carry crosses a byte).
    const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
    count += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24;
  }
  for (i += words.length * 4; i < to; i++) if (bytes[i] === 10) count++;
  return count;
}

/** Whether the search runs in WebAssembly (for tests and the bench). */
export function precheckInWasm(): boolean {
  return precheckModule() !== undefined;
}

/** Every index nextCandidate reports in a buffer; with `inJs`, as the loop without WebAssembly finds them (tests). */
export function candidatesOf(buffer: Uint8Array, inJs = false): number[] {
  beginCandidates(buffer);
  const all: number[] = [];
  const next = inJs ? nextInJs : nextCandidate;
  for (let at = next(0); at !== -1; at = next(at + 1)) all.push(at);
  return all;
}
