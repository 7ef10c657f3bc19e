// A chat prompt with images: the conversation's turns as language-model messages (core/lm/messages.ts), the images
// as parts of the last user turn, so each service's wire form carries them (chat completions' `image_url` data
// URL, the Responses API's `input_image`).
import type { LmMessage } from '../lm/messages.ts';
import type { PromptImage, SentImage } from '../../shared/promptImages.ts';
import { base64Bytes } from '../../shared/promptImages.ts';
import type { Turn } from '../services/module.ts';

export function turnsWithImages(turns: readonly Turn[], images: readonly PromptImage[]): LmMessage[] {
  const last = turns.length - 1;
  return turns.map((turn, i) => ({
    role: turn.role,
    parts: [
      { kind: 'text', text: turn.content },
      ...(i === last && turn.role === 'user'
        ? images.map((image) => ({ kind: 'image' as const, mimeType: image.mimeType, base64: image.base64 }))
        : []),
    ],
  }));
}

/** What the conversation keeps of the images: their names and sizes, not the pictures. */
export const sentImages = (images: readonly PromptImage[]): SentImage[] =>
  images.map((image) => ({ name: image.name, mimeType: image.mimeType, bytes: base64Bytes(image.base64) }));
