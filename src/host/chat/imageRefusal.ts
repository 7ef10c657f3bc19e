// The host's own check of images sent with a prompt (the webview checked already; its messages are not trusted),
// worded for the note under the prompt box.
import * as vscode from 'vscode';
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_COUNT,
  type PromptImage,
  base64Bytes,
  imageRefusal,
  megabytes,
} from '../../shared/promptImages.ts';

const t = vscode.l10n.t;

/** Why the images cannot go to `model` (`imageInput`: its list says it reads images); undefined when they can. */
export function imagesRefusedText(
  model: string,
  imageInput: boolean | undefined,
  images: readonly PromptImage[],
): string | undefined {
  for (const [index, image] of images.entries()) {
    const bytes = base64Bytes(image.base64);
    switch (imageRefusal({ mimeType: image.mimeType, bytes }, imageInput, index)) {
      case 'model':
        return t(
          '{0} does not take images: its model list does not say it reads them. Pick a model marked "images" in the model picker.',
          model,
        );
      case 'type':
        return t('{0} is not a PNG, JPEG, GIF or WebP image, the kinds the services take.', image.name);
      case 'size':
        return t('{0} is {1}; an image may be {2} at most.', image.name, megabytes(bytes), megabytes(IMAGE_MAX_BYTES));
      case 'count':
        return t('Up to {0} images can go with one prompt.', String(IMAGE_MAX_COUNT));
      case undefined:
    }
  }
  return undefined;
}
