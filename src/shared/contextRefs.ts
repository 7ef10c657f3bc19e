// The `#` references a prompt can point at (#file, #selection, #problems, #changes, #terminal): their names, where
// they stand in a prompt, and what the prompt box completes as the person types `#`. Shared by the webview (its
// completion) and core (resolving a typed prompt, core/chat/contextRefs.ts), so both read a prompt alike.

export const CONTEXT_REFS = ['file', 'selection', 'problems', 'changes', 'terminal'] as const;
export type ContextRefName = (typeof CONTEXT_REFS)[number];

export const isContextRefName = (value: unknown): value is ContextRefName =>
  (CONTEXT_REFS as readonly unknown[]).includes(value);

/** A `#name` in a prompt: [start, end) in UTF-16 units. */
export interface RefToken {
  name: ContextRefName;
  start: number;
  end: number;
}

// `#name` at the start or after white space, and not run on into a longer word: "C#file" and "#filesystem" are
// not references, "#file," and "(#changes)" are.
const TOKEN = /(^|[\s(])#([a-z]+)(?=$|[\s.,;:!?)])/g;

/** Every reference in `text`, in order; a name said twice is listed twice (the caller keeps one). */
export function findContextRefs(text: string): RefToken[] {
  const out: RefToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const name = match[2];
    if (!isContextRefName(name)) continue;
    const start = match.index + match[1]!.length;
    out.push({ name, start, end: start + 1 + name.length });
  }
  return out;
}

/** The prompt with its references taken out (they are sent as context instead), white space tidied. */
export function withoutContextRefs(text: string, tokens: readonly RefToken[] = findContextRefs(text)): string {
  let out = text;
  for (const token of [...tokens].reverse()) out = out.slice(0, token.start) + out.slice(token.end);
  return out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +\n/g, '\n')
    .trim();
}

/**
 * What the box completes at `caret`: a `#` typed at the start or after white space, and the letters after it
 * up to the caret. Undefined when the caret is not in such a word.
 */
export function refQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)#([a-z]*)$/.exec(before);
  if (!match) return undefined;
  return { start: before.length - match[2]!.length - 1, query: match[2]! };
}

/** The references whose name starts with `query`, in the list's order. */
export function matchingRefs(query: string): ContextRefName[] {
  return CONTEXT_REFS.filter((name) => name.startsWith(query.toLowerCase()));
}

/**
 * What a one-line box that cannot tell where its caret is (a VS Code Quick Input, the inline edit's) completes: the
 * `#word` the text ends with, and the references it may become. Undefined when the text does not end in one that
 * matches a name, so the box shows no list and Enter sends the text.
 */
export function refCompletionAtEnd(text: string): { start: number; names: ContextRefName[] } | undefined {
  const at = refQueryAt(text, text.length);
  if (!at) return undefined;
  const names = matchingRefs(at.query);
  return names.length > 0 ? { start: at.start, names } : undefined;
}

/** The text with the `#word` that starts at `start` completed to `name`, and a space after it for the next word. */
export function completeRef(text: string, start: number, name: ContextRefName): string {
  return `${text.slice(0, start)}#${name} `;
}
