// Workspace and global state that cannot hold a key: every update passes the
// one filter for disk, whoever writes it.
import type * as vscode from 'vscode';
import { type PersistOptions, scrubForDisk } from '../core/guards/persistFilter.ts';

export class ScrubbedMemento implements vscode.Memento {
  private readonly inner: vscode.Memento;
  private readonly options: () => Promise<PersistOptions>;

  /** `options` gives the keys Keyward holds, so a stored key of any shape is masked too. */
  constructor(inner: vscode.Memento, options: () => Promise<PersistOptions>) {
    this.inner = inner;
    this.options = options;
  }

  keys(): readonly string[] {
    return this.inner.keys();
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.inner.get<T>(key) ?? defaultValue;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.inner.update(key, undefined);
    const options = await this.options().catch((): PersistOptions => ({}));
    await this.inner.update(key, scrubForDisk(value, options));
  }
}
