import * as vscode from 'vscode';
import { redactSecrets } from '../core/redact.ts';

/** The one output channel; every line is redacted before VS Code sees it. */
export class Log implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Keyward', { log: true });
  }

  info(message: string): void {
    this.channel.info(redactSecrets(message));
  }

  warn(message: string): void {
    this.channel.warn(redactSecrets(message));
  }

  error(message: string): void {
    this.channel.error(redactSecrets(message));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
