// Images pasted or dropped into the prompt box, for a model whose list says it reads images: each one a chip
// (name and size; the panel's CSP loads no data: image, so there is no thumbnail) with a Remove button. An image
// the model does not take, of another kind, too big or one too many is refused at once with the reason, under the
// box (shared/promptImages.ts says the limits; the host checks them again).
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_COUNT,
  type ImageRefusal,
  type PromptImage,
  base64Bytes,
  imageRefusal,
  isImageType,
  megabytes,
} from '../shared/promptImages.ts';
import { codicon, element, iconButton } from './dom.ts';
import type { ChatStore } from './store.ts';
import type { Strings } from './turnNotes.ts';

/** Why an image was refused, in the panel's words, or undefined when it was not. */
function refusalText(
  s: Strings,
  reason: ImageRefusal | undefined,
  file: { name: string; size: number },
  model: string,
): string | undefined {
  const { name } = file;
  switch (reason) {
    case 'model':
      return s(
        'image.refusedModel',
        '{0} does not take images: its model list does not say it reads them. Pick a model marked "images" in the model picker.',
      ).replace('{0}', model);
    case 'type':
      return s('image.refusedType', '{0} is not a PNG, JPEG, GIF or WebP image, the kinds the services take.').replace(
        '{0}',
        name,
      );
    case 'size':
      return s('image.refusedSize', '{0} is {1}; an image may be {2} at most.')
        .replace('{0}', name)
        .replace('{1}', megabytes(file.size))
        .replace('{2}', megabytes(IMAGE_MAX_BYTES));
    case 'count':
      return s('image.refusedCount', 'Up to {0} images can go with one prompt.').replace(
        '{0}',
        String(IMAGE_MAX_COUNT),
      );
    case undefined:
      return undefined;
  }
}

/** The image files of a paste (its items) or a drop (its files). */
function imagesOf(items: DataTransferItemList | undefined, files: FileList | undefined): File[] {
  const out = files ? Array.from(files) : [];
  if (out.length === 0 && items)
    for (const item of Array.from(items)) {
      const file = item.kind === 'file' ? item.getAsFile() : null;
      if (file) out.push(file);
    }
  return out.filter((f) => f.type.startsWith('image/') || f.type === '');
}

/** An image's chip: its name and size, and a Remove button. */
function chipNode(image: PromptImage, s: Strings, remove: () => void): HTMLElement {
  const size = megabytes(base64Bytes(image.base64));
  const button = iconButton('close', `${s('removeAttachment', 'Remove')} ${image.name}`, remove);
  button.classList.add('chip-remove');
  const chip = element('span', { className: 'chip', title: `${image.name} (${size})` });
  chip.append(codicon('file-media'), `${image.name} · ${size}`, button);
  chip.setAttribute('aria-label', s('image.label', 'Image {0}, {1}').replace('{0}', image.name).replace('{1}', size));
  return chip;
}

export interface ImageTray {
  readonly node: HTMLElement;
  images(): PromptImage[];
  clear(): void;
  /** The current model's refusal of the images held, or undefined when they can go. */
  refusal(): string | undefined;
  wire(box: HTMLTextAreaElement, dropZone: HTMLElement): void;
}

function newId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

export function createImageTray(
  store: ChatStore,
  hooks: { currentModel(): string; note(text: string): void; announce(text: string): void; focus(): void },
): ImageTray {
  const { s } = store;
  const node = element('div', { id: 'images', className: 'attachments' });
  node.setAttribute('role', 'group');
  node.setAttribute('aria-label', s('images', 'Attached images'));
  let held: PromptImage[] = [];

  const imageInput = () => {
    const { service } = store.state;
    return store.state.models[service]?.find((m) => m.id === hooks.currentModel())?.imageInput;
  };

  const why = (file: { name: string; type: string; size: number }, count: number) =>
    refusalText(
      s,
      imageRefusal({ mimeType: file.type, bytes: file.size }, imageInput(), count),
      file,
      hooks.currentModel(),
    );

  function render(): void {
    node.hidden = held.length === 0;
    node.replaceChildren(
      ...held.map((image) =>
        chipNode(image, s, () => {
          held = held.filter((i) => i.id !== image.id);
          render();
          hooks.focus();
        }),
      ),
    );
  }

  async function add(files: File[]): Promise<void> {
    for (const file of files) {
      const refused = why(file, held.length);
      if (refused) {
        hooks.note(refused);
        continue;
      }
      const mimeType = file.type;
      if (!isImageType(mimeType)) continue;
      held.push({ id: newId(), name: file.name || 'image', mimeType, base64: await readBase64(file) });
      render();
      hooks.announce(s('image.attached', 'Image attached: {0}').replace('{0}', file.name || 'image'));
    }
  }

  return {
    node,
    images: () => held,
    clear() {
      held = [];
      render();
    },
    refusal() {
      if (held.length === 0 || imageInput() === true) return undefined;
      return s(
        'image.refusedModel',
        '{0} does not take images: its model list does not say it reads them. Pick a model marked "images" in the model picker.',
      ).replace('{0}', hooks.currentModel());
    },
    wire(box, dropZone) {
      render();
      const take = (e: Event, files: File[]) => {
        if (files.length === 0) return;
        e.preventDefault();
        void add(files);
      };
      box.addEventListener('paste', (e) => take(e, imagesOf(e.clipboardData?.items, e.clipboardData?.files)));
      dropZone.addEventListener('dragover', (e) => {
        if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
      });
      dropZone.addEventListener('drop', (e) => take(e, imagesOf(undefined, e.dataTransfer?.files)));
    },
  };
}
