// Model output is untrusted: markdown-it with raw HTML off, then DOMPurify
// before anything touches the DOM. Links survive only as https.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlightBlock } from './highlight.ts';

const plain = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
const highlighted = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  typographer: false,
  // markdown-it hands the fence's first word and the rest apart: the rest may name the block's file.
  highlight: (code, language, attributes) => highlightBlock(code, attributes ? `${language} ${attributes}` : language),
});

// markdown-it's own link check lets http and relative links through; the panel opens only https.
for (const markdown of [plain, highlighted]) markdown.validateLink = (url: string) => /^https:\/\//i.test(url.trim());

const PURIFY_CONFIG = {
  ALLOWED_URI_REGEXP: /^https:\/\//i,
  FORBID_TAGS: [
    'style',
    'img',
    'svg',
    'math',
    'iframe',
    'object',
    'embed',
    'form',
    'input',
    'button',
    'video',
    'audio',
    'source',
    'picture',
    'link',
    'meta',
    'base',
  ],
  FORBID_ATTR: ['style', 'srcset', 'formaction', 'xlink:href', 'action'],
  ALLOW_DATA_ATTR: false,
};

type Purifier = { sanitize(html: string, config: object): string };

export interface RenderOptions {
  /** Off for the tail of a streaming answer: it is drawn again every frame, and highlighted once it settles. */
  highlight?: boolean;
}

/** The sanitiser; a window can be given where there is no global one (tests). */
export function createRenderer(
  purifier: Purifier = DOMPurify as unknown as Purifier,
): (text: string, options?: RenderOptions) => string {
  return (text: string, options: RenderOptions = {}) =>
    purifier.sanitize((options.highlight === false ? plain : highlighted).render(text), PURIFY_CONFIG);
}

/**
 * Finished blocks of a streamed answer, each highlighted and wrapped in its own `div.block`, sanitised in
 * one pass: DOMPurify parses a fresh document per call, which cost more than the markdown of a short block.
 */
export function createBlockRenderer(
  purifier: Purifier = DOMPurify as unknown as Purifier,
): (texts: readonly string[]) => string {
  return (texts) =>
    purifier.sanitize(
      texts.map((text) => `<div class="block">${highlighted.render(text)}</div>`).join(''),
      PURIFY_CONFIG,
    );
}

export function createPurifier(window: unknown): Purifier {
  return (DOMPurify as unknown as (w: unknown) => Purifier)(window);
}
