// The prompt panel's browser code. It holds no key and makes no request: it
// speaks to the host only through postMessage.
declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
vscode.postMessage({ type: 'webview/ready' });
