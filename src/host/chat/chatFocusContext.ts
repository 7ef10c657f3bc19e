// The `keyward.chatFocus` context key: true while a chat's webview holds the keyboard focus. A webview's frame sits
// over its view rather than inside it, so the workbench's `focusedView` is not `keyward.chat` while the prompt box
// or the conversation has the focus; the webview says when it gains and loses it (webview/main.ts), and the
// keybindings that belong to the chat (Alt+F2) ask this key instead (microsoft/vscode#167790 asks for a built-in one).
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../shared/dispose.ts';

export const CHAT_FOCUS_CONTEXT = 'keyward.chatFocus';

export class ChatFocusContext extends Disposable {
  private readonly focused = new Set<object>();
  private shown = false;

  constructor() {
    super();
    this._register(toDisposable(() => this.focused.size > 0 && this.publish(false)));
  }

  /** `from` is the webview that said so (the side view or the editor tab); either one focused is enough. */
  set(from: object | undefined, focused: boolean): void {
    if (!from) return;
    if (focused) this.focused.add(from);
    else this.focused.delete(from);
    const now = this.focused.size > 0;
    if (now !== this.shown) this.publish(now);
  }

  private publish(value: boolean): void {
    this.shown = value;
    void vscode.commands.executeCommand('setContext', CHAT_FOCUS_CONTEXT, value);
  }
}
