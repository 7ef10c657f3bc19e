// One webview showing the prompt UI, panel or side-bar view alike: its options
// and HTML, and the ready handshake (nothing is posted before `webview/ready`;
// what comes earlier waits in a queue).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import type { HostMessage } from '../../shared/protocol.ts';
import { buildPanelHtml } from './panelHtml.ts';
import { panelStrings } from './panelStrings.ts';

export { promptWebviewOptions } from './webviewOptions.ts';

export class WebviewConnection extends Disposable {
  private ready = false;
  private readonly queue: HostMessage[] = [];
  private markReady: () => void = () => undefined;
  /** Settles once the webview said it is ready: focus given to a webview still loading is lost. */
  readonly whenReady = new Promise<void>((resolve) => {
    this.markReady = resolve;
  });
  private readonly webview: vscode.Webview;

  constructor(
    webview: vscode.Webview,
    extensionUri: vscode.Uri,
    onMessage: (raw: unknown, from: WebviewConnection) => void,
  ) {
    super();
    this.webview = webview;
    const nonce = randomBytes(16).toString('base64');
    webview.html = buildPanelHtml({
      cspSource: webview.cspSource,
      nonce,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'panel.css')).toString(),
      codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicon.css')).toString(),
      lang: vscode.env.language,
      strings: panelStrings(),
    });
    this._register(webview.onDidReceiveMessage((raw: unknown) => onMessage(raw, this)));
  }

  /** Posts now when the webview is ready, else later; a stale `panel/state` is dropped, the ready answer replaces it. */
  post(message: HostMessage): void {
    if (!this.ready) {
      if (message.type !== 'panel/state') this.queue.push(message);
      return;
    }
    void this.webview.postMessage(message);
  }

  /** The webview said it is ready: the state first, then what waited. */
  opened(state: Extract<HostMessage, { type: 'panel/state' }>): void {
    this.ready = true;
    this.markReady();
    void this.webview.postMessage(state);
    for (const message of this.queue.splice(0)) void this.webview.postMessage(message);
  }

  override dispose(): void {
    this.ready = false;
    super.dispose();
  }
}
