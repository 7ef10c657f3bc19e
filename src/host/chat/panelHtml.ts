// The panel's HTML, built by a pure function so its CSP can be tested: nothing
// loads but this extension's own script (by nonce) and style, and the webview
// has no network at all (no connect-src).
export interface PanelHtmlInput {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** The codicon subset's stylesheet (its font loads from the same place, under font-src). */
  codiconUri?: string;
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
${input.codiconUri ? `<link rel="stylesheet" href="${escape(input.codiconUri)}">\n` : ''}<link rel="stylesheet" href="${escape(input.styleUri)}">
<title>${s('title', 'Keyward')}</title>
</head>
<body>
<h1 class="visually-hidden">${s('title', 'Keyward')}</h1>
<p id="keyboard-help" class="visually-hidden">${s('keyboardHelp', 'Tab and Shift+Tab move within the chat. Escape goes back to the editor; F6 moves to the next part of the window.')}</p>
<header class="toolbar">
  <div id="services" class="services" role="group" aria-label="${s('service', 'Service')}"></div>
  <div id="model-list-row" class="model-row">
    <div class="picker">
      <button id="model-picker" type="button" class="picker-button" aria-haspopup="listbox" aria-expanded="false" aria-controls="model-popup" title="${s('model', 'Model')}"><span id="model-picker-label" class="picker-label"></span><span id="free-badge" class="badge" hidden>${s('free', 'free')}</span><span class="codicon codicon-chevron-down" aria-hidden="true"></span></button>
      <div id="model-popup" class="picker-popup" hidden>
        <div class="picker-search"><span class="codicon codicon-search" aria-hidden="true"></span><input id="model-filter" type="text" role="combobox" aria-expanded="false" aria-controls="model" aria-autocomplete="list" autocomplete="off" spellcheck="false" placeholder="${s('searchModels', 'Search models')}" aria-label="${s('searchModels', 'Search models')}"></div>
        <ul id="model" role="listbox" aria-label="${s('model', 'Model')}"></ul>
      </div>
    </div>
    <button id="refresh-models" type="button" class="icon-button" title="${s('refreshModels', 'Refresh the model list')}" aria-label="${s('refreshModels', 'Refresh the model list')}"><span class="codicon codicon-refresh" aria-hidden="true"></span></button>
    <button id="model-settings" type="button" class="icon-button" title="${s('modelSettings', 'Settings for this model')}" aria-label="${s('modelSettings', 'Settings for this model')}"><span class="codicon codicon-settings-gear" aria-hidden="true"></span></button>
  </div>
  <div id="model-id-row" class="model-row" hidden>
    <label for="model-id">${s('typeModel', 'This key may not list models; type a model id:')}</label>
    <input id="model-id" type="text" autocomplete="off" spellcheck="false">
  </div>
  <div id="no-key" class="notice" hidden>${s('noKey', 'No key is stored for this service.')} <button id="set-key">${s('setKey', 'Set key')}</button></div>
</header>
<main class="chat">
<div id="conversation" role="log" tabindex="0" aria-label="${s('conversation', 'Conversation')}"></div>
<div id="empty" class="empty">${s('empty', 'Ask a question, or use "Keyward: Ask About Selection" in an editor.')}</div>
</main>
<footer class="composer">
  <div id="spend-cap" hidden></div>
  <div id="retry" class="retry" role="status" hidden></div>
  <div class="input-box">
    <div id="attachments" class="attachments" role="group" aria-label="${s('attachments', 'Attached code')}"></div>
    <textarea id="prompt" rows="3" autocomplete="off" placeholder="${s('placeholder.enter', 'Ask… (Enter to send, Shift+Enter for a new line)')}" aria-label="${s('prompt', 'Prompt')}" aria-describedby="keyboard-help"></textarea>
    <div class="input-actions">
      <div class="attach">
        <button id="attach" type="button" class="icon-button" aria-haspopup="menu" aria-expanded="false" aria-controls="attach-menu" title="${s('attach', 'Attach context')}" aria-label="${s('attach', 'Attach context')}"><span class="codicon codicon-add" aria-hidden="true"></span></button>
        <div id="attach-menu" class="menu" role="menu" aria-label="${s('attach', 'Attach context')}" hidden>
          <button type="button" role="menuitem" data-source="selection"><span class="codicon codicon-selection" aria-hidden="true"></span>${s('attachSelection', 'Selection')}</button>
          <button type="button" role="menuitem" data-source="activeFile"><span class="codicon codicon-file" aria-hidden="true"></span>${s('attachActiveFile', 'Active file (whole)')}</button>
          <button type="button" role="menuitem" data-source="openFile"><span class="codicon codicon-files" aria-hidden="true"></span>${s('attachOpenFile', 'Other open file…')}</button>
        </div>
      </div>
      <span class="spacer"></span>
      <button id="send" type="button" class="primary icon-button" title="${s('send', 'Send')}" aria-label="${s('send', 'Send')}"><span class="codicon codicon-send" aria-hidden="true"></span></button>
      <button id="stop" type="button" class="icon-button" title="${s('stopHint', 'Stop (Escape)')}" aria-label="${s('stop', 'Stop')}" hidden><span class="codicon codicon-debug-stop" aria-hidden="true"></span></button>
    </div>
  </div>
  <div class="buttons">
    <span class="spacer"></span>
    <button id="export">${s('export', 'Export')}</button>
    <button id="clear">${s('clear', 'Clear')}</button>
  </div>
</footer>
<script nonce="${escape(input.nonce)}" src="${escape(input.scriptUri)}"></script>
</body>
</html>`;
}
