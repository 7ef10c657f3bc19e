// The one event emitter. Shared (no vscode, no node) so core classes and the host use the
// same one; the host hands `event` on where VS Code expects a `vscode.Event`.
import type { IDisposable } from './dispose.ts';

/** What subscribing returns: call it or dispose it to unsubscribe (the older callers call it). */
export type Subscription = (() => void) & IDisposable;

export type Event<T> = (listener: (value: T) => void) => Subscription;

export class Emitter<T> implements IDisposable {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    // Wrapped so that one function subscribed twice is two subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    const unsubscribe = () => void this.listeners.delete(entry);
    return Object.assign(unsubscribe, { dispose: unsubscribe });
  };

  /** Calls every listener; one added or removed while firing does not change this round. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
