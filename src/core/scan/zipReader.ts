// Lists a zip's entries from its central directory, as unzip does, and
// inflates each one in full. fflate's unzipSync returned an object keyed by
// name (a second entry of one name replaced the first; an entry named
// "__proto__" was lost) and inflated into a buffer of the declared size (an
// entry declaring fewer bytes than it holds was cut short where `unzip -p`
// extracts all of it). Here every entry is listed in order, and an entry is
// inflated to its real end, within the caller's limits.
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Compression method: 0 stored, 8 deflate; anything else is not read. */
  method: number;
  encrypted: boolean;
  /** Sizes as the central directory declares them. */
  packedSize: number;
  declaredSize: number;
  /** The packed bytes (empty when they are not within the file). */
  packed: Uint8Array;
  /** Why the packed bytes could not be found, if they could not. */
  problem?: string;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

class Bytes {
  private readonly b: Uint8Array;
  constructor(b: Uint8Array) {
    this.b = b;
  }
  get length(): number {
    return this.b.length;
  }
  u16(at: number): number {
    return at + 2 <= this.b.length ? this.b[at]! | (this.b[at + 1]! << 8) : -1;
  }
  u32(at: number): number {
    return at + 4 <= this.b.length
      ? (this.b[at]! | (this.b[at + 1]! << 8) | (this.b[at + 2]! << 16) | (this.b[at + 3]! << 24)) >>> 0
      : -1;
  }
  u64(at: number): number {
    const low = this.u32(at);
    const high = this.u32(at + 4);
    return low === -1 || high === -1 ? -1 : high * 0x1_0000_0000 + low;
  }
  slice(from: number, to: number): Uint8Array {
    return this.b.subarray(from, to);
  }
}

/** Where the central directory is: its records' first byte, where they end, and how far the zip is shifted. */
interface Directory {
  count: number;
  first: number;
  end: number;
  shift: number;
}

/** Finds the central directory from the end record (and the zip64 one, when there is one). */
function directoryOf(b: Bytes, length: number): Directory {
  // The end record is within the last 64 KB (its comment is at most that long), read backwards as unzip does.
  let end = -1;
  for (let at = length - 22; at >= 0 && at >= length - 22 - 0xffff; at--) {
    if (b.u32(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end === -1) throw new Error('no end of central directory: not a zip, or cut short');
  let count = b.u16(end + 10);
  let size = b.u32(end + 12);
  let offset = b.u32(end + 16);
  let directoryEnd = end;
  // A zip64 end record, when there is one, sits between the directory and the end record and holds the real
  // values (zip writes one for a stream from stdin even when the plain fields would do).
  if (end >= 20 && b.u32(end - 20) === ZIP64_LOCATOR) {
    let at = b.u64(end - 12);
    if (b.u32(at) !== ZIP64_EOCD) at = end - 20 - 56;
    if (b.u32(at) !== ZIP64_EOCD) throw new Error('a zip64 end record that cannot be found');
    count = b.u64(at + 32);
    size = b.u64(at + 40);
    offset = b.u64(at + 48);
    directoryEnd = at;
  }
  // Bytes before the zip (a self-extractor's stub, a browser extension's header) shift every offset, as unzip allows.
  const shift = directoryEnd - size - offset;
  if (shift < 0) throw new Error('the central directory lies outside the file');
  return { count, first: offset + shift, end: directoryEnd, shift };
}

/** The central record at `at`: its entry (without data yet), its local header's offset, and where the next starts. */
function centralRecord(b: Bytes, at: number): { entry: ZipEntry; local: number; next: number } {
  const flags = b.u16(at + 8);
  let packedSize = b.u32(at + 20);
  let declaredSize = b.u32(at + 24);
  const nameLength = b.u16(at + 28);
  let local = b.u32(at + 42);
  const nameBytes = b.slice(at + 46, at + 46 + nameLength);
  // The zip64 extra field holds, in this order, the sizes and offset whose 32-bit fields are all ones.
  const extraEnd = at + 46 + nameLength + b.u16(at + 30);
  for (let x = at + 46 + nameLength; x + 4 <= extraEnd; x += 4 + b.u16(x + 2)) {
    if (b.u16(x) !== 1) continue;
    let field = x + 4;
    if (declaredSize === 0xffffffff) {
      declaredSize = b.u64(field);
      field += 8;
    }
    if (packedSize === 0xffffffff) {
      packedSize = b.u64(field);
      field += 8;
    }
    if (local === 0xffffffff) local = b.u64(field);
    break;
  }
  const entry: ZipEntry = {
    // Bit 11: UTF-8; else the IBM PC code page, read here as Latin-1 (as fflate does).
    name: Buffer.from(nameBytes).toString(flags & 0x800 ? 'utf8' : 'latin1'),
    method: b.u16(at + 10),
    encrypted: (flags & 1) === 1,
    packedSize,
    declaredSize,
    packed: new Uint8Array(0),
  };
  return { entry, local, next: extraEnd + b.u16(at + 32) };
}

/** The entries of a zip, in central-directory order; throws when there is no central directory to read. */
export function zipEntryList(bytes: Uint8Array): ZipEntry[] {
  const b = new Bytes(bytes);
  const directory = directoryOf(b, bytes.length);
  const entries: ZipEntry[] = [];
  // Every record there is read, whatever count the end record declares.
  for (let at = directory.first; at < directory.end && b.u32(at) === CENTRAL;) {
    const { entry, local, next } = centralRecord(b, at);
    at = next;
    const header = local + directory.shift;
    if (b.u32(header) !== LOCAL || header + 30 > bytes.length)
      entry.problem = 'no local header where the central directory points';
    else {
      const start = header + 30 + b.u16(header + 26) + b.u16(header + 28);
      if (start + entry.packedSize > bytes.length) entry.problem = 'its data runs past the end of the file';
      else entry.packed = b.slice(start, start + entry.packedSize);
    }
    entries.push(entry);
  }
  if (entries.length === 0 && directory.count > 0)
    throw new Error('no central directory record where the end record points');
  return entries;
}

/**
 * An entry's bytes, in full: a stored entry as the packed size says (as unzip
 * reads it), a deflated one inflated to the end of its stream, never past
 * `maxBytes` (a RangeError with code ERR_BUFFER_TOO_LARGE then).
 */
export function unpackEntry(entry: ZipEntry, maxBytes: number): Uint8Array {
  if (entry.method === 0) {
    if (entry.packed.length > maxBytes)
      throw Object.assign(new RangeError('entry too large'), { code: 'ERR_BUFFER_TOO_LARGE' });
    return entry.packed;
  }
  return inflateRawSync(entry.packed, { maxOutputLength: Math.max(1, maxBytes) });
}
