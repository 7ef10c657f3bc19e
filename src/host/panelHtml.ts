// The panel's HTML, built by a pure function so its CSP can be tested: nothing
// loads but this extension's own script (by nonce) and style, and the webview
// has no network at all (no connect-src).
export interface PanelHtmlInput {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  lang: string;
  strings: Record<string, string>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function buildPanelHtml(input: PanelHtmlInput): string {
  const s = (key: string, fallback: string) => escape(input.strings[key] ?? fallback);
  return `<!DOCTYPE html>
<html lang="${escape(input.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(input.cspSource, input.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escape(input.styleUri)}">
<title>${s('title', 'Keyward')}</title>
</head>
<body>
<header class="toolbar">
  <div id="services" class="services" role="group" aria-label="${s('service', 'Service')}"></div>
  <div id="model-list-row" class="model-row">
    <input id="model-filter" type="search" autocomplete="off" placeholder="${s('searchModels', 'Search models')}" aria-label="${s('searchModels', 'Search models')}">
    <select id="model" autocomplete="off" aria-label="${s('model', 'Model')}"></select>
    <span id="free-badge" class="badge" hidden>${s('free', 'free')}</span>
    <button id="refresh-models" title="${s('refreshModels', 'Refresh the model list')}" aria-label="${s('refreshModels', 'Refresh the model list')}">↻</button>
  </div>
  <div id="model-id-row" class="model-row" hidden>
    <label for="model-id">${s('typeModel', 'This key may not list models; type a model id:')}</label>
    <input id="model-id" type="text" autocomplete="off" spellcheck="false">
  </div>
  <div id="no-key" class="notice" hidden>${s('noKey', 'No key is stored for this service.')} <button id="set-key">${s('setKey', 'Set key')}</button></div>
</header>
<main id="conversation" role="log" aria-live="polite" aria-label="${s('conversation', 'Conversation')}"></main>
<div id="empty" class="empty">${s('empty', 'Ask a question, or use "Keyward: Ask About Selection" in an editor.')}</div>
<footer class="composer">
  <div id="attachments" class="attachments" aria-label="${s('attachments', 'Attached code')}"></div>
  <div id="retry" class="retry" role="status" hidden></div>
  <textarea id="prompt" rows="4" autocomplete="off" placeholder="${s('placeholder', 'Ask… (Ctrl+Enter to send)')}" aria-label="${s('prompt', 'Prompt')}"></textarea>
  <div class="buttons">
    <button id="send" class="primary">${s('send', 'Send')}</button>
    <button id="stop" hidden>${s('stop', 'Stop')}</button>
    <span class="spacer"></span>
    <button id="export">${s('export', 'Export')}</button>
    <button id="clear">${s('clear', 'Clear')}</button>
  </div>
</footer>
<script nonce="${escape(input.nonce)}" src="${escape(input.scriptUri)}"></script>
</body>
</html>`;
}
