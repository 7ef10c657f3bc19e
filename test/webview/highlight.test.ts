// Highlighted code is still model output: it must come out coloured, escaped and sanitised.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { fenceFile, fenceLanguage, highlightBlock } from '../../src/webview/highlight.ts';
import { createPurifier, createRenderer } from '../../src/webview/markdown.ts';

const render = createRenderer(createPurifier(new JSDOM('').window));
const dom = (html: string) => new JSDOM(`<body>${html}</body>`).window.document;

describe('code highlighting', () => {
  it('colours a known language with hljs classes and labels the block', () => {
    const doc = dom(render('```ts\nconst answer: number = 42; // why\n```\n'));
    const code = doc.querySelector('pre > code')!;
    expect(code.className).toBe('hljs language-ts');
    expect(code.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(code.querySelector('.hljs-number')?.textContent).toBe('42');
    expect(code.querySelector('.hljs-comment')?.textContent).toBe('// why');
    expect(code.textContent).toBe('const answer: number = 42; // why\n');
  });

  it('escapes an unknown language instead of guessing', () => {
    const html = highlightBlock('<b>x</b> & y', 'brainfork');
    expect(html).toBe('<pre><code class="hljs language-brainfork">&lt;b&gt;x&lt;/b&gt; &amp; y</code></pre>\n');
  });

  it('keeps a hostile fence label out of the markup', () => {
    expect(fenceLanguage('" onmouseover="alert(1)')).toBe('');
    expect(fenceLanguage('js{1,3}')).toBe('');
    expect(fenceLanguage('Python extra words')).toBe('python');
    const doc = dom(render('```x" onclick="alert(1)\nhi\n```\n'));
    expect(doc.querySelector('[onclick]')).toBeNull();
    expect(doc.querySelector('code')!.className).toBe('hljs');
  });

  it('no markup inside highlighted code survives as markup', () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '</code></pre><img src=x onerror=alert(1)>',
      '<!-- <svg onload=alert(1)> -->',
    ];
    for (const lang of ['html', 'xml', 'js', 'markdown', 'python', '']) {
      for (const payload of payloads) {
        const doc = dom(render(`\`\`\`${lang}\n${payload}\n\`\`\`\n`));
        expect(doc.querySelectorAll('script, img, svg, [onerror], [onload]')).toHaveLength(0);
        expect(doc.querySelector('code')!.textContent).toBe(`${payload}\n`);
        for (const el of Array.from(doc.querySelectorAll('code *'))) {
          expect(el.tagName).toBe('SPAN');
          expect(Array.from(el.attributes).map((a) => a.name)).toEqual(['class']);
        }
      }
    }
  });

  it('the streaming tail can be drawn without highlighting', () => {
    const doc = dom(render('```ts\nconst a = 1;\n```\n', { highlight: false }));
    expect(doc.querySelector('code')!.className).toBe('language-ts');
    expect(doc.querySelector('code span')).toBeNull();
  });
});

// Issue 21 item 8: the file a fence names reaches Apply (the renderer keeps only the language in the class).
describe('the file a fence names', () => {
  it('reads the path after the language, in each form answers use', () => {
    expect(fenceFile('ts src/a.ts')).toBe('src/a.ts');
    expect(fenceFile('ts title="src/a.ts"')).toBe('src/a.ts');
    expect(fenceFile('ts:src/a.ts')).toBe('src/a.ts');
    expect(fenceFile('python path=tools/run.py')).toBe('tools/run.py');
    expect(fenceFile('ts')).toBe('');
    expect(fenceFile('js {1,3}')).toBe('');
  });

  it('lets only path characters into the attribute', () => {
    expect(fenceFile('ts "><img src=x onerror=alert(1)>.ts')).toBe('');
    const html = highlightBlock('x', 'ts src/a.ts');
    expect(html.startsWith('<pre title="src/a.ts"><code')).toBe(true);
  });
});
