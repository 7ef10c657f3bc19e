// What a file is, as a container the scanner opens: by its name, and by its
// first bytes, so a zip renamed `.bin` or a gzip without `.gz` is opened too.
// Formats Keyward cannot decompress are recognised as well, to be named as
// not scanned rather than searched as if their bytes were text.

/** Containers Keyward opens: zip and the packages built on it, tar, gzip (a .tgz is gzip of a tar). */
export type OpenedKind = 'zip' | 'tar' | 'tgz' | 'gzip' | 'zstd';
/** Compressed formats Keyward has no decoder for: named, never called clean. */
export type UnopenedKind = 'bzip2' | 'xz' | '7z' | 'rar' | 'compress' | 'lz4';
export type ArchiveKind = OpenedKind | UnopenedKind;

/** What a person calls each kind, for the message that says it was not opened. */
export const KIND_NAMES: Record<ArchiveKind, string> = {
  zip: 'zip',
  tar: 'tar',
  tgz: 'gzip-compressed tar',
  gzip: 'gzip',
  zstd: 'Zstandard',
  bzip2: 'bzip2',
  xz: 'xz/LZMA',
  '7z': '7-Zip',
  rar: 'RAR',
  compress: 'Unix compress (.Z)',
  lz4: 'LZ4',
};

// Zip-based: packages (VS Code, Java, Android, iOS, Python, NuGet, browser extensions), Office Open XML,
// OpenDocument, EPUB, Windows app packages.
const ZIP_NAMES = new Set(
  'zip vsix jar war ear aar apk aab ipa whl egg nupkg xpi crx docx docm dotx xlsx xlsm xltx pptx pptm potx odt ods odp odg ott epub appx msix kmz'.split(
    ' ',
  ),
);
const BY_EXTENSION: Record<string, ArchiveKind> = {
  tgz: 'tgz',
  tar: 'tar',
  gz: 'gzip',
  zst: 'zstd',
  tzst: 'zstd',
  bz2: 'bzip2',
  tbz: 'bzip2',
  tbz2: 'bzip2',
  xz: 'xz',
  txz: 'xz',
  lzma: 'xz',
  '7z': '7z',
  rar: 'rar',
  z: 'compress',
  lz4: 'lz4',
};

/** Two characters as one number, the way `ARCHIVE_ENDINGS` holds them: ASCII letters in lower case. */
const pairCode = (a: number, b: number) => ((a | 0x20) << 8) | (b | 0x20);

/** The last two characters of every name above (".z" for `.z`). */
const ARCHIVE_ENDINGS = new Set(
  [...ZIP_NAMES, ...Object.keys(BY_EXTENSION)].map((extension) => {
    const name = `.${extension}`;
    return pairCode(name.charCodeAt(name.length - 2), name.charCodeAt(name.length - 1));
  }),
);

/** The container a file name says it is. */
export function archiveKind(name: string): ArchiveKind | undefined {
  // Most names are no archive, and say so by their last two characters (".js", ".ts", ".map", ".json"): settled
  // by two character codes, with no copy of the name made. Anything but ASCII there goes the whole way
  // (toLowerCase turns some other characters into ASCII letters).
  const a = name.charCodeAt(name.length - 2);
  const b = name.charCodeAt(name.length - 1);
  if (a < 0x80 && b < 0x80 && !ARCHIVE_ENDINGS.has(pairCode(a, b))) return undefined;
  // Then one look at the last dot before lowercasing and matching.
  const dot = name.lastIndexOf('.');
  if (dot === -1 || name.length - dot > 6) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  if (ZIP_NAMES.has(extension)) return 'zip';
  if (extension === 'gz' && name.toLowerCase().endsWith('.tar.gz')) return 'tgz';
  return Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : undefined;
}

/** Whether the bytes at `at` are `expected`; no array or closure per call, as it runs for every file of a scan. */
function startsWith(bytes: Uint8Array, at: number, expected: readonly number[]): boolean {
  if (bytes.length < at + expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

const ZIP_LOCAL = [0x50, 0x4b, 3, 4];
const ZIP_EMPTY = [0x50, 0x4b, 5, 6];
const ZIP_SPANNED = [0x50, 0x4b, 7, 8];
const CRX = [0x43, 0x72, 0x32, 0x34];
const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];
const LZ4 = [0x04, 0x22, 0x4d, 0x18];
const BZIP2 = [0x42, 0x5a, 0x68];
const BZIP2_BLOCK = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
const BZIP2_END = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
const XZ = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
const SEVEN_ZIP = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c];
const RAR = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07];
const USTAR = [0x75, 0x73, 0x74, 0x61, 0x72];
const TAR_BLOCK = 512;

/**
 * A number field of a tar header: octal digits after optional spaces, then NULs or spaces to the field's end (as
 * tar-stream's decodeOct and GNU tar's from_header read it), or GNU's base-256 for a large size; NaN when neither.
 */
function tarNumber(bytes: Uint8Array, at: number, length: number): number {
  const end = at + length;
  if (bytes[at]! === 0x80) {
    let value = 0;
    for (let i = at + 1; i < end; i++) value = value * 256 + bytes[i]!;
    return value;
  }
  let i = at;
  while (i < end && bytes[i] === 0x20) i++;
  let value = 0;
  for (; i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x37; i++) value = value * 8 + bytes[i]! - 0x30;
  for (; i < end; i++) if (bytes[i] !== 0 && bytes[i] !== 0x20) return Number.NaN;
  return value;
}

/**
 * Whether a tar header starts the bytes: "ustar\0" then "00" (POSIX) or "ustar  \0" (GNU) at 257, a checksum that
 * adds up (the header's bytes summed with its own field as spaces, unsigned or, as old tars wrote it, signed), and
 * a first entry's size that parses and fits in `size` bytes. "ustar" alone at 257 is found in text (tar-stream's
 * own headers.js): a text file taken for a tar could not be unpacked and was named as not scanned.
 */
function isTarHeader(bytes: Uint8Array, size: number): boolean {
  if (bytes.length < TAR_BLOCK || !startsWith(bytes, 257, USTAR)) return false;
  const posix = bytes[262] === 0 && bytes[263] === 0x30 && bytes[264] === 0x30;
  const gnu = bytes[262] === 0x20 && bytes[263] === 0x20 && bytes[264] === 0;
  if (!posix && !gnu) return false;
  const checksum = tarNumber(bytes, 148, 8);
  let unsigned = 8 * 0x20;
  let signed = 8 * 0x20;
  for (let i = 0; i < TAR_BLOCK; i++) {
    if (i >= 148 && i < 156) continue;
    unsigned += bytes[i]!;
    signed += bytes[i]! < 0x80 ? bytes[i]! : bytes[i]! - 0x100;
  }
  if (checksum !== unsigned && checksum !== signed) return false;
  const entry = tarNumber(bytes, 124, 12);
  return entry >= 0 && TAR_BLOCK + entry <= size;
}

/**
 * The container a file's first bytes say it is (the first 512 bytes are enough). `size`: the whole file's, when
 * `bytes` are only its start (a tar's first entry must fit in it); unknown, Infinity.
 */
export function archiveMagic(bytes: Uint8Array, size: number = bytes.length): ArchiveKind | undefined {
  if (bytes.length < 4) return undefined;
  const a = bytes[0]!;
  const b = bytes[1];
  // By the first byte, which tells every magic below from the others: one comparison for most files, which
  // start with none of them (every file of a scan comes through here).
  switch (a) {
    case 0x50:
      // PK\3\4 a local file header, PK\5\6 an empty archive, PK\7\8 a spanned one.
      if (startsWith(bytes, 0, ZIP_LOCAL) || startsWith(bytes, 0, ZIP_EMPTY) || startsWith(bytes, 0, ZIP_SPANNED))
        return 'zip';
      break;
    case 0x43:
      // "Cr24" a browser extension's header.
      if (startsWith(bytes, 0, CRX)) return 'zip';
      break;
    case 0x1f:
      // gzip with its only method (deflate); compress with a flags byte as ncompress writes it (9 to 16 bits).
      if (b === 0x8b && bytes[2] === 8) return 'gzip';
      if (b === 0x9d && (bytes[2]! & 0x60) === 0 && (bytes[2]! & 0x1f) >= 9 && (bytes[2]! & 0x1f) <= 16)
        return 'compress';
      break;
    case 0x28:
      if (startsWith(bytes, 0, ZSTD)) return 'zstd';
      break;
    case 0x04:
      if (startsWith(bytes, 0, LZ4)) return 'lz4';
      break;
    case 0x42:
      // "BZh", a block size digit, then the magic of a block (pi) or of the end of an empty stream (sqrt pi).
      if (
        startsWith(bytes, 0, BZIP2) &&
        bytes[3]! >= 0x31 &&
        bytes[3]! <= 0x39 &&
        (startsWith(bytes, 4, BZIP2_BLOCK) || startsWith(bytes, 4, BZIP2_END))
      )
        return 'bzip2';
      break;
    case 0xfd:
      if (startsWith(bytes, 0, XZ)) return 'xz';
      break;
    case 0x37:
      if (startsWith(bytes, 0, SEVEN_ZIP)) return '7z';
      break;
    case 0x52:
      if (startsWith(bytes, 0, RAR)) return 'rar';
      break;
  }
  // POSIX and GNU tar headers, checked whole (a v7 tar has no magic; its name says .tar).
  if (isTarHeader(bytes, size)) return 'tar';
  return undefined;
}

/**
 * Node has a Zstandard decoder from 22.15 and 23.8; an older one (an editor's) names .zst files instead. Asked of
 * process.versions, so zlib is not loaded before an archive needs it.
 */
export const HAS_ZSTD = process.versions.zstd !== undefined;

/** Whether Keyward can open this kind here. */
export function canOpen(kind: ArchiveKind): kind is OpenedKind {
  if (kind === 'zstd') return HAS_ZSTD;
  return kind === 'zip' || kind === 'tar' || kind === 'tgz' || kind === 'gzip';
}
