// SHA-256 (FIPS 180-4) of a string's UTF-8 bytes for the CLI's fingerprints: in WebAssembly (sha256.wat), or in
// JavaScript where WebAssembly cannot run (--jitless) or the text is too long for the module's page.
// `keyward scan` names every key it finds by a fingerprint; loading node:crypto for the first one (and the
// streams and ciphers it pulls in) took 6–10 ms, a twentieth of a whole scan. Keys are short: one or two
// blocks each. The extension keeps node:crypto, which its host has loaded anyway.
// test/core/keys/sha256.test.ts checks both against node:crypto and the standard's own examples.
import { SHA256_WASM_BASE64 } from './sha256Wasm.ts';

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const W = new Int32Array(64);
const H = new Int32Array(8);

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

function compress(block: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    W[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let b = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = H[0]! + a;
  H[1] = H[1]! + b;
  H[2] = H[2]! + c;
  H[3] = H[3]! + d;
  H[4] = H[4]! + e;
  H[5] = H[5]! + f;
  H[6] = H[6]! + g;
  H[7] = H[7]! + h;
}

/** sha256.wat's `hash`, over its memory: the message from MESSAGE_AT, the digest at DIGEST_AT. */
interface Module {
  memory: Buffer;
  hash(length: number): void;
}

const MESSAGE_AT = 1024;
const DIGEST_AT = 320;
/** The longest message the module's page holds with its padding. */
const MESSAGE_ROOM = 64 * 1024 - MESSAGE_AT - 9;

/** The module, made on the first hash; null where it cannot be. */
let wasm: Module | null | undefined;

function wasmModule(): Module | null {
  if (wasm !== undefined) return wasm;
  wasm = null;
  // The module reads its words little-endian; typed arrays write them in the platform's order.
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) return wasm;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(SHA256_WASM_BASE64, 'base64')));
    const { memory, hash } = instance.exports as { memory: WebAssembly.Memory; hash: Module['hash'] };
    new Int32Array(memory.buffer, 0, 64).set(K);
    wasm = { memory: Buffer.from(memory.buffer), hash };
  } catch {
    // An engine without WebAssembly (as under --jitless): the rounds in JavaScript.
  }
  return wasm;
}

/** Whether hashes are made in WebAssembly here (for tests). */
export function sha256InWasm(): boolean {
  return wasmModule() !== null;
}

/**
 * The SHA-256 of `text` (as UTF-8), in 64 lower-case hex digits, as node:crypto's hash('sha256', text, 'hex').
 * `inJs`: without WebAssembly (for tests). In WebAssembly a hash is three native calls (the text encoded into
 * the module's memory, the hash, the digest in hex): with the rounds, the padding and the digits in JavaScript,
 * which runs in its interpreter for most of a scan's few hundred keys, hashing was a quarter of scanning the
 * bench's files with keys (measured in one process, cold).
 */
export function sha256Hex(text: string, inJs = false): string {
  const module = inJs ? null : wasmModule();
  // Three bytes at most per UTF-16 unit (a lone surrogate too: U+FFFD, as node:crypto encodes it).
  if (module && text.length * 3 <= MESSAGE_ROOM) {
    module.hash(module.memory.write(text, MESSAGE_AT, 'utf8'));
    return module.memory.toString('hex', DIGEST_AT, DIGEST_AT + 32);
  }
  const bytes = Buffer.from(text, 'utf8');
  // The message, a 1 bit, zeros, and its length in bits as 64 bits big-endian, in whole 64-byte blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
  H.set(INITIAL);
  for (let at = 0; at < padded.length; at += 64) compress(padded, at);
  let hex = '';
  for (const word of H) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}
