// The secret guard for language-model requests from VS Code: no one is asked (another extension may be sending),
// so a key in any byte the request sends stops it, and the error names where each key is. Nothing is redacted and
// sent in its place: the caller decides what to resend. Every byte means: the tools' definitions (name,
// description, input schema), every part of every message (an image's bytes too: an SVG is text, and a PNG or JPEG
// keeps its metadata as plain ASCII, so bytes are read one character each), and the parts joined together, as the
// wire joins a message's text parts, so a key split over two parts or two messages is caught whole.
import { type Finding, type ScanOptions, scanText } from '../scan/scanner.ts';
import type { LmMessage, LmPart, LmTool } from '../lm/messages.ts';

export interface KeyLocation {
  /** 0-based, in the request's messages; -1 for a tool's definition. */
  message: number;
  /** 0-based, in that message's parts; for a tool, its place in the tools. */
  part: number;
  /** Where a key split over parts ends, when not in the part it starts in. */
  end?: { message: number; part: number };
  kind: LmPart['kind'] | 'tool';
  /** The tool's name, for a tool's definition. */
  tool?: string;
  masked: string;
  description: string;
}

/** Bytes as one character each: ASCII (every key) reads as itself whatever the rest of the bytes are. */
function bytesAsText(base64: string): string {
  return Buffer.from(base64, 'base64').toString('latin1');
}

function scannedText(part: LmPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolResult':
      return part.text;
    case 'toolCall':
      return `${part.name} ${JSON.stringify(part.input ?? {})}`;
    case 'image':
      return bytesAsText(part.base64);
  }
}

interface Segment {
  message: number;
  part: number;
  kind: LmPart['kind'];
  text: string;
  /** UTF-8 byte offset of the segment in the joined text, as the scanner counts. */
  start: number;
}

/** The parts as one text, in the order they are sent, and where each part sits in it. */
function joined(messages: readonly LmMessage[]): { text: string; segments: Segment[] } {
  const segments: Segment[] = [];
  let start = 0;
  messages.forEach((message, m) =>
    message.parts.forEach((part, p) => {
      const text = scannedText(part);
      segments.push({ message: m, part: p, kind: part.kind, text, start });
      start += Buffer.byteLength(text);
    }),
  );
  return { text: segments.map((s) => s.text).join(''), segments };
}

function segmentAt(segments: readonly Segment[], byte: number): Segment {
  let found = segments[0]!;
  for (const s of segments) if (s.start <= byte && s.text.length > 0) found = s;
  return found;
}

const guarded = (options: ScanOptions): ScanOptions => ({ ...options, allowComments: false });

/** Every key in the messages, where it is: each part alone, then all parts joined for keys split over them. */
export function keysInMessages(messages: readonly LmMessage[], options: ScanOptions): KeyLocation[] {
  const found: KeyLocation[] = [];
  const seen = new Set<string>();
  const add = (location: KeyLocation) => {
    const id = `${location.message}:${location.part}:${location.end?.message}:${location.end?.part}:${location.masked}`;
    if (seen.has(id)) return;
    seen.add(id);
    found.push(location);
  };
  const place = (f: Finding, s: Segment) => ({ kind: s.kind, masked: f.masked, description: f.description });
  const { text, segments } = joined(messages);
  for (const s of segments)
    if (s.text)
      for (const f of scanText(s.text, guarded(options))) add({ message: s.message, part: s.part, ...place(f, s) });
  if (segments.length < 2) return found;
  for (const f of scanText(text, guarded(options))) {
    const first = segmentAt(segments, f.startByte);
    const last = segmentAt(segments, f.endByte - 1);
    // Found whole inside one part: the scan of that part has it.
    if (first === last) continue;
    add({
      message: first.message,
      part: first.part,
      end: { message: last.message, part: last.part },
      ...place(f, first),
    });
  }
  return found;
}

/** Every key in the tools' definitions: the name, the description and the input schema, as they are sent. */
export function keysInTools(tools: readonly LmTool[], options: ScanOptions): KeyLocation[] {
  return tools.flatMap((tool, t) =>
    scanText(`${tool.name}\n${tool.description}\n${JSON.stringify(tool.inputSchema ?? {})}`, guarded(options)).map(
      (f) => ({
        message: -1,
        part: t,
        kind: 'tool' as const,
        tool: tool.name,
        masked: f.masked,
        description: f.description,
      }),
    ),
  );
}

/** Every key in what a request sends: its tools, then its messages. */
export function keysInRequest(
  messages: readonly LmMessage[],
  tools: readonly LmTool[],
  options: ScanOptions,
): KeyLocation[] {
  return [...keysInTools(tools, options), ...keysInMessages(messages, options)];
}

const PART_WORDS: Record<LmPart['kind'], string> = {
  text: 'text',
  toolCall: 'tool call',
  toolResult: 'tool result',
  image: 'image',
};

function placeWords(f: KeyLocation): string {
  if (f.kind === 'tool') return `tool ${f.part + 1} (${f.tool ?? ''}) definition`;
  const kind = PART_WORDS[f.kind];
  if (!f.end) return `message ${f.message + 1}, part ${f.part + 1} (${kind})`;
  if (f.end.message === f.message)
    return `message ${f.message + 1}, parts ${f.part + 1} to ${f.end.part + 1} (${kind})`;
  return `message ${f.message + 1}, part ${f.part + 1} to message ${f.end.message + 1}, part ${f.end.part + 1} (${kind})`;
}

/** The places in English, 1-based as a person counts: "message 2, part 1 (tool result): sk-or-…a1b2 (…)". */
export function describeLocations(found: readonly KeyLocation[]): string {
  return found.map((f) => `${placeWords(f)}: ${f.masked} (${f.description})`).join('; ');
}
