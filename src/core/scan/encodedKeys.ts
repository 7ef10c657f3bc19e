// Keys hidden in base64: Kubernetes Secrets (`data:` values), `.npmrc` `_auth`,
// `Authorization: Basic`, docker's `"auth"`. Like gitleaks (detect/codec/encodings.go
// decodes runs of `[\w/+-]{16,}={0,2}`, recursively up to --max-decode-depth), runs of a
// plausible length are decoded and the decoded text scanned; unlike it, only where such
// a value can be: a text that names one of the places, so ordinary code pays one search.

/** Words that come with a base64 secret: a Secret's `data:`, npm's `_auth`, basic auth, docker's `auth`. */
const ANCHORS = ['data:', '_auth', 'Basic ', 'basic ', '"auth"', 'auth:'];
const ANCHOR_BYTES = ANCHORS.map((anchor) => Buffer.from(anchor, 'latin1'));

/** Base64 of the shortest key (27 characters) is 36 long; a run past this cannot be a short value. */
const MIN_RUN = 36;
const MAX_RUN = 1400;
const RUN = /[A-Za-z0-9+/_-]{36,}={0,2}/g;

/** Decoding inside decoded text stops here (a Secret holding a docker config holding an auth is 3). */
export const MAX_DECODE_DEPTH = 3;

/** Whether a text names a place where base64 secrets are kept. */
export function mayHoldEncoded(text: string): boolean {
  return ANCHORS.some((anchor) => text.includes(anchor));
}

/** The same for bytes: the files the CLI reads are looked at before they are decoded. */
export function mayHoldEncodedBytes(bytes: Buffer): boolean {
  return ANCHOR_BYTES.some((anchor) => bytes.indexOf(anchor) !== -1);
}

export interface EncodedRun {
  start: number;
  end: number;
  decoded: string;
}

/** Runs of base64 in `text` whose decoded bytes are printable text, with that text. */
export function encodedRuns(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    if (run.length < MIN_RUN || run.length > MAX_RUN) continue;
    const bytes = Buffer.from(run, 'base64');
    if (!printable(bytes)) continue;
    runs.push({ start: match.index, end: match.index + run.length, decoded: bytes.toString('latin1') });
  }
  return runs;
}

/** Printable ASCII with tabs and line breaks: what a key, a `user:key` pair or a config is. */
function printable(bytes: Buffer): boolean {
  for (const byte of bytes) if ((byte < 0x20 || byte > 0x7e) && byte !== 9 && byte !== 10 && byte !== 13) return false;
  return bytes.length > 0;
}
