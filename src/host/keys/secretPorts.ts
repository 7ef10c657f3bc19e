import type * as vscode from 'vscode';
import type { SecretPort, StatePort } from '../../core/keys/keyStore.ts';

/** The key store's ports over VS Code: SecretStorage for keys, global state for metadata. */
export function secretPort(secrets: vscode.SecretStorage): SecretPort {
  return {
    get: (name) => Promise.resolve(secrets.get(name)),
    store: (name, value) => Promise.resolve(secrets.store(name, value)),
    delete: (name) => Promise.resolve(secrets.delete(name)),
  };
}

export function statePort(memento: vscode.Memento): StatePort {
  return {
    get: <T>(name: string) => memento.get<T>(name),
    update: (name, value) => Promise.resolve(memento.update(name, value)),
  };
}
