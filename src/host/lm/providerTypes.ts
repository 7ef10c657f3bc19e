// The language model provider's own types, which its request handling (lmRequests.ts, loaded on the first request)
// reads too.
import type * as vscode from 'vscode';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import type { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import type { SpendGuard } from '../chat/spendGuard.ts';
import type { LanguageModelAccess } from './lmAccess.ts';

export interface KeywardModelInformation extends vscode.LanguageModelChatInformation {
  readonly service: ServiceId;
  readonly model: string;
}

/** What the provider is built from; the request handling (lmRequests.ts) reads it too. */
export interface ChatProviderParts {
  monitor: AccountMonitor;
  keys: KeyStore;
  catalog: ModelCatalog;
  configuration: Configuration;
  settings: ModelSettingsStore;
  /** The daily spend cap: a paid model past it is refused, and each answer's cost is added. */
  spend?: SpendGuard;
  /** Which other extensions the person allowed to use Keyward's models (built on first use); absent, no one is asked. */
  access?: () => Promise<LanguageModelAccess>;
  log: Log;
  /** The manifest's managementCommand: Keyward's key setup. */
  manageCommand: string;
}
