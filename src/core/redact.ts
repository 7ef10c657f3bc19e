// Masks anything key-shaped before text reaches a log, an error message or the
// webview. Servers echo keys back (the real ones do, in 401 messages), so every
// text from the network passes through here. The shapes live in shared/keyShapes.ts.
import { maskKey, maskKeyShapes } from '../shared/keyShapes.ts';

export { maskKey };

export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) {
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  }
  return maskKeyShapes(out);
}
