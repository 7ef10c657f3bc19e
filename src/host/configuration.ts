import * as vscode from 'vscode';
import {
  type KeywardConfig,
  RESTRICTED_SETTINGS,
  guardedValue,
  isGuardedSetting,
  normalizeConfig,
  withoutWorkspace,
} from '../core/config.ts';
import { proxyFromSettings } from '../core/proxyConfig.ts';
import { Disposable } from '../shared/dispose.ts';
import { Emitter, type Subscription } from '../shared/event.ts';
import type { Log } from './log.ts';

/**
 * A setting below `keyward.` as Keyward obeys it: a privacy or safety setting
 * from the user, made only stricter by the workspace (a repository cannot switch it off);
 * in Restricted Mode a restricted setting (package.json's `restrictedConfigurations`) takes
 * no workspace value at all, whatever VS Code hands over.
 */
export function readSetting(name: string): unknown {
  const section = vscode.workspace.getConfiguration('keyward');
  const untrusted = !vscode.workspace.isTrusted && RESTRICTED_SETTINGS.includes(name);
  if (!isGuardedSetting(name) && !untrusted) return section.get(name);
  const inspected = section.inspect(name);
  if (!inspected) return untrusted ? undefined : section.get(name);
  const layers = untrusted ? withoutWorkspace(inspected) : inspected;
  return isGuardedSetting(name) ? guardedValue(name, layers) : (layers.globalValue ?? layers.defaultValue);
}

/**
 * One of VS Code's `http.*` settings (the proxy, its authorisation, certificate checks) as the user set it: a
 * repository's .vscode/settings.json never picks the proxy a key travels through nor switches certificate checks
 * off (VS Code scopes these to the application too; this holds whatever the host hands over).
 */
export function readHttpSetting(name: string): unknown {
  const inspected = vscode.workspace.getConfiguration('http').inspect(name);
  return inspected ? (inspected.globalValue ?? inspected.defaultValue) : undefined;
}

/** The one place that reads Keyward's settings; bad values are named once per change. */
export class Configuration extends Disposable {
  private current: KeywardConfig;
  private readonly changed = this._register(new Emitter<KeywardConfig>());
  private readonly log: Log;

  constructor(log: Log) {
    super();
    this.log = log;
    this.current = this.read();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('keyward') && !event.affectsConfiguration('http')) return;
        this.current = this.read();
        this.changed.fire(this.current);
      }),
    );
    // Trusting the folder brings its values for the restricted settings back.
    this._register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.current = this.read();
        this.changed.fire(this.current);
      }),
    );
  }

  get value(): KeywardConfig {
    return this.current;
  }

  onDidChange(listener: (config: KeywardConfig) => void): Subscription {
    return this.changed.event(listener);
  }

  private read(): KeywardConfig {
    const { config, problems } = normalizeConfig(readSetting);
    // VS Code's proxy settings, passed to core as plain data: the host's patching of Node's http does not reach undici.
    const network = proxyFromSettings(readHttpSetting, process.env);
    config.network = { ...config.network, proxy: network.proxy };
    problems.push(...network.problems);
    for (const problem of problems) {
      this.log.warn(`${problem.setting} ${problem.message}; using the default.`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Keyward setting {0} {1}. The default is used instead.', problem.setting, problem.message),
      );
    }
    return config;
  }
}
