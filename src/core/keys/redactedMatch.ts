// Which of a project's keys a full key is, when the list shows only the redacted form. The direct service's spec
// (specs/openai-openapi.yaml) gives `redacted_value` as a head, three dots and a tail: "sk-abc...def" in the
// ProjectApiKey examples, "sk-admin...def" and "sk-admin...xyz" in the AdminApiKey ones. The head and tail lengths are
// not documented (other clients' fixtures show "sk-...abcd" and "sk-proj-...9f2c"), so the match reads them from the
// redacted form itself instead of assuming any. Three characters of tail can collide: a caller that finds more than
// one match must ask, never pick.

/** The head and tail a redacted value shows, or undefined when it is not of the "head...tail" form. */
export function redactedParts(redactedValue: string): { head: string; tail: string } | undefined {
  const match = /^(sk-[^.…*\s]*?)(?:\.{3}|…|\*{3,})([^.…*\s]+)$/.exec(redactedValue.trim());
  if (!match) return undefined;
  return { head: match[1]!, tail: match[2]! };
}

/** Whether `key` is the key a list shows as `redactedValue`: same head, same tail, room for both. */
export function matchRedacted(key: string, redactedValue: string): boolean {
  const parts = redactedParts(redactedValue);
  if (!parts) return false;
  const whole = key.trim();
  return (
    whole.length > parts.head.length + parts.tail.length && whole.startsWith(parts.head) && whole.endsWith(parts.tail)
  );
}

/** The listed keys that `key` could be: none, one, or several (ambiguous: ask). */
export function keysMatching<T extends { redactedValue: string }>(key: string, listed: readonly T[]): T[] {
  return listed.filter((entry) => matchRedacted(key, entry.redactedValue));
}
