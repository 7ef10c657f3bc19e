// Images pasted or dropped into the prompt box: which kinds, how big, how many, and which models take them. Both
// sides check: the webview refuses at once with the reason, the host again before anything is sent (a message
// from the webview is never trusted).

/** An image to send with a prompt; `base64` is the file's bytes. Never stored: a conversation keeps its name only. */
export interface PromptImage {
  id: string;
  name: string;
  mimeType: ImageType;
  base64: string;
}

/** What a sent prompt's turn keeps of an image: enough to say it went, not the picture. */
export interface SentImage {
  name: string;
  mimeType: string;
  bytes: number;
}

/** The kinds both wire formats take as data URLs (the routing service's and the direct service's image guides). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/**
 * 5 MB an image: the smallest per-image limit among the providers the routing service reaches (Anthropic's 5 MB;
 * the direct service takes up to 50 MB a request), so an image that passes here is not refused by whichever
 * provider answers.
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_COUNT = 4;

export const isImageType = (value: unknown): value is ImageType => (IMAGE_TYPES as readonly unknown[]).includes(value);

/** The bytes `base64` holds. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** Why an image cannot go with the prompt, or undefined when it can. `imageInput`: the model's list says it reads images. */
export type ImageRefusal = 'model' | 'type' | 'size' | 'count';

export function imageRefusal(
  image: { mimeType: string; bytes: number },
  imageInput: boolean | undefined,
  alreadyAttached: number,
): ImageRefusal | undefined {
  if (imageInput !== true) return 'model';
  if (!isImageType(image.mimeType)) return 'type';
  if (image.bytes > IMAGE_MAX_BYTES) return 'size';
  if (alreadyAttached >= IMAGE_MAX_COUNT) return 'count';
  return undefined;
}

/** A size as a chip or a refusal says it: "68 B", "12 KB", "7.2 MB". */
export const megabytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.ceil(bytes / 1024)} KB`
      : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The runtime check of an image from the webview. */
export function isPromptImage(value: unknown): value is PromptImage {
  if (!value || typeof value !== 'object') return false;
  const i = value as Record<string, unknown>;
  return (
    typeof i.id === 'string' &&
    /^[\w-]{1,64}$/.test(i.id) &&
    typeof i.name === 'string' &&
    i.name.length <= 300 &&
    isImageType(i.mimeType) &&
    typeof i.base64 === 'string' &&
    i.base64.length > 0 &&
    i.base64.length <= Math.ceil(IMAGE_MAX_BYTES / 3) * 4 &&
    i.base64.length % 4 === 0 &&
    BASE64.test(i.base64)
  );
}
