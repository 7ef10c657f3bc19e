import * as vscode from 'vscode';
import { type KeywardConfig, normalizeConfig } from '../core/config.ts';
import type { Log } from './log.ts';

/** The one place that reads Keyward's settings; bad values are named once per change. */
export class Configuration implements vscode.Disposable {
  private current: KeywardConfig;
  private readonly listeners = new Set<(config: KeywardConfig) => void>();
  private readonly subscription: vscode.Disposable;
  private readonly log: Log;

  constructor(log: Log) {
    this.log = log;
    this.current = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('keyward')) return;
      this.current = this.read();
      for (const listener of this.listeners) listener(this.current);
    });
  }

  get value(): KeywardConfig {
    return this.current;
  }

  onDidChange(listener: (config: KeywardConfig) => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  private read(): KeywardConfig {
    const section = vscode.workspace.getConfiguration('keyward');
    const { config, problems } = normalizeConfig((name) => section.get(name));
    for (const problem of problems) {
      this.log.warn(`${problem.setting} ${problem.message}; using the default.`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Keyward setting {0} {1}. The default is used instead.', problem.setting, problem.message));
    }
    return config;
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }
}
