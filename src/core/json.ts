// Reading loosely shaped JSON from the wire without trusting its shape.
export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The JSON object a text holds, or undefined for anything else (HTML, truncated, an array). */
export function parseObject(text: string): Json | undefined {
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}
