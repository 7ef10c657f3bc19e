// One way to hold and release what a class subscribed to or created, in the style of
// the hex editor extension's `_register`: register as you create, dispose once.
// Shared (no vscode import): VS Code's Disposable fits the interface as it is.

export interface IDisposable {
  dispose(): void;
}

/** Disposes the newest first, so a thing goes before what it was built on. */
export function disposeAll(disposables: IDisposable[]): void {
  while (disposables.length > 0) disposables.pop()!.dispose();
}

export abstract class Disposable implements IDisposable {
  private disposed = false;
  private readonly registered: IDisposable[] = [];

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.registered);
  }

  /** Holds `value` until this is disposed; registered after that, it goes at once (no leak on late async work). */
  protected _register<T extends IDisposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.registered.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }
}

/** A disposable made of a function (VS Code's `new Disposable(fn)` outside the host). */
export function toDisposable(dispose: () => void): IDisposable {
  return { dispose };
}
