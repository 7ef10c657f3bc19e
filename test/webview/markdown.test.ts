// Model output is untrusted: no payload of this corpus may survive rendering.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createBlockRenderer, createPurifier, createRenderer } from '../../src/webview/markdown.ts';

const render = createRenderer(createPurifier(new JSDOM('').window));
const renderBlocks = createBlockRenderer(createPurifier(new JSDOM('').window));

function dom(html: string): Document {
  return new JSDOM(`<body>${html}</body>`).window.document;
}

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r=1/></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![img](https://example.test/x.png)',
  '<div onclick="alert(1)">x</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<style>body{background:url(https://evil.test)}</style>',
  '<form action="https://evil.test"><input name=k></form>',
  '<a href="http://plain.test">plain http</a> [also](http://plain.test)',
  '<object data="x"></object><embed src="x">',
  '[vb](vbscript:msgbox(1))',
  '<base href="https://evil.test/">',
  '<meta http-equiv="refresh" content="0;url=https://evil.test">',
  '<p style="background:url(x)">styled</p>',
];

describe('markdown sanitiser', () => {
  it.each(PAYLOADS.flatMap((payload) => [[payload, 'alone'] as const, [payload, 'among streamed blocks'] as const]))(
    'neutralises %s (%s)',
    (payload, how) => {
      const doc = dom(how === 'alone' ? render(payload) : renderBlocks(['intro\n', `${payload}\n`, '</div>outro\n']));
      expect(
        doc.querySelectorAll('script, iframe, svg, math, img, style, form, input, object, embed, base, meta').length,
      ).toBe(0);
      for (const el of Array.from(doc.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) {
          expect(attr.name.startsWith('on')).toBe(false);
          expect(attr.name).not.toBe('style');
          if (attr.name === 'href' || attr.name === 'src') expect(attr.value).toMatch(/^https:\/\//);
        }
      }
    },
  );

  it('draws streamed blocks each in its own wrapper, which their text cannot close', () => {
    const doc = dom(renderBlocks(['one </div>\n', '```ts\nconst a = 1;\n```\n', 'three\n']));
    const blocks = Array.from(doc.body.children);
    expect(blocks.map((b) => b.className)).toEqual(['block', 'block', 'block']);
    expect(blocks[0]!.textContent).toBe('one </div>\n');
    expect(blocks[1]!.querySelector('pre code .hljs-keyword')!.textContent).toBe('const');
  });

  it('renders ordinary markdown: code blocks, lists, https links', () => {
    const doc = dom(
      render('# Title\n\n- one\n- two\n\n```js\nconsole.log(1);\n```\n\n[docs](https://example.test/docs)'),
    );
    expect(doc.querySelector('h1')!.textContent).toBe('Title');
    expect(doc.querySelectorAll('li')).toHaveLength(2);
    expect(doc.querySelector('pre code')!.textContent).toBe('console.log(1);\n');
    expect(doc.querySelector('a')!.getAttribute('href')).toBe('https://example.test/docs');
  });

  it('shows raw HTML as text rather than markup', () => {
    expect(dom(render('<b>bold?</b>')).body.textContent).toContain('<b>bold?</b>');
  });
});
