// Model output is untrusted: markdown-it with raw HTML off, then DOMPurify
// before anything touches the DOM. Links survive only as https.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

// markdown-it's own link check lets http and relative links through; the panel opens only https.
markdown.validateLink = (url: string) => /^https:\/\//i.test(url.trim());

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

/** The sanitiser; a window can be given where there is no global one (tests). */
export function createRenderer(purifier: Purifier = DOMPurify as unknown as Purifier): (text: string) => string {
  return (text: string) => purifier.sanitize(markdown.render(text), PURIFY_CONFIG);
}

export function createPurifier(window: unknown): Purifier {
  return (DOMPurify as unknown as (w: unknown) => Purifier)(window);
}
