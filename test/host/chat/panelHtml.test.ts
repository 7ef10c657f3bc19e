import { describe, expect, it } from 'vitest';
import { buildPanelHtml, contentSecurityPolicy } from '../../../src/host/chat/panelHtml.ts';

describe('panel HTML', () => {
  const html = buildPanelHtml({
    cspSource: 'https://file+.vscode-resource.test',
    nonce: 'n0nce==',
    scriptUri: 'https://file+.vscode-resource.test/dist/webview.js',
    styleUri: 'https://file+.vscode-resource.test/media/panel.css',
    lang: 'en',
    strings: { send: 'Send <now>' },
  });

  it('has a strict CSP: nothing by default, scripts by nonce only, no network from the webview', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'nonce-n0nce=='"]);
    expect(directives.get('style-src')).toEqual(['https://file+.vscode-resource.test']);
    expect(directives.has('connect-src')).toBe(false);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy('x', 'y')).toBe(
      csp
        .replace('https://file+.vscode-resource.test', 'x')
        .replace('https://file+.vscode-resource.test', 'x')
        .replace('https://file+.vscode-resource.test', 'x')
        .replace('n0nce==', 'y'),
    );
  });

  it('loads the one script by nonce, and no inline script or handler', () => {
    const scripts = html.match(/<script[^>]*>/g)!;
    expect(scripts).toEqual(['<script nonce="n0nce==" src="https://file+.vscode-resource.test/dist/webview.js">']);
    expect(html).not.toMatch(/\son\w+=/);
  });

  it("keeps what is typed out of the browser's saved form state (a browser saves it with its session)", () => {
    const fields = html.match(/<(input|textarea|select)\b[^>]*>/g)!;
    // The model search, the typed model id and the prompt (the picker is a listbox, not a select).
    expect(fields.length).toBeGreaterThanOrEqual(3);
    for (const field of fields) expect(field).toContain('autocomplete="off"');
  });

  it('escapes localised strings', () => {
    expect(html).toContain('Send &#60;now&#62;');
  });
});
