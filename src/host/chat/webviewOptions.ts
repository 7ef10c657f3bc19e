// The chat webviews' options, apart from the connection (webviewConnection.ts) that fills them: the editor tab and the
// side view set them at once, while the chat session that connects them loads on demand (chatSessionOnDemand.ts).
import * as vscode from 'vscode';

/** Scripts on, and only what ships (dist, media) may load. */
export function promptWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}
