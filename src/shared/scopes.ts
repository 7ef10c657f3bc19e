// Permission scopes of a direct-service key, as its error messages name them.

const SCOPE = /[a-z][\w-]*(?:\.[\w-]+)+/g;

/**
 * The permission scopes a direct-service message says the key lacks
 * ("... Missing scopes: api.responses.write. Check that ..."), sent with 401 by
 * some accounts and 403 by others, so only the message tells.
 */
export function missingScopesIn(message: string): string[] {
  const at = message.indexOf('Missing scopes:');
  if (at < 0) return [];
  // The list ends at the sentence's full stop; a scope's own dots are followed by a letter.
  const rest = message.slice(at + 'Missing scopes:'.length);
  const end = /\.(?:\s|$)/.exec(rest);
  const list = end ? rest.slice(0, end.index) : rest;
  return [...new Set(list.match(SCOPE) ?? [])];
}

/** Scopes without which a key cannot prompt at all (as opposed to only listing models). */
export function blocksPrompting(scope: string): boolean {
  return scope !== 'api.model.read';
}
