import * as vscode from 'vscode';
import { Disposable } from '../shared/dispose.ts';
import { redactSecrets } from '../core/redact.ts';

/** The one output channel; every line is redacted before VS Code sees it. */
export class Log extends Disposable {
  private readonly channel: vscode.LogOutputChannel;
  /** The last lines, already redacted: the key-leak check reads them. */
  private readonly recent: string[] = [];

  constructor() {
    super();
    this.channel = this._register(vscode.window.createOutputChannel('Keyward', { log: true }));
  }

  info(message: string): void {
    this.channel.info(this.keep(message));
  }

  warn(message: string): void {
    this.channel.warn(this.keep(message));
  }

  error(message: string): void {
    this.channel.error(this.keep(message));
  }

  lines(): readonly string[] {
    return this.recent;
  }

  private keep(message: string): string {
    const line = redactSecrets(message);
    this.recent.push(line);
    if (this.recent.length > 500) this.recent.shift();
    return line;
  }

  show(): void {
    this.channel.show(true);
  }
}
