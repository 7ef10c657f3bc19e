import { describe, expect, it } from 'vitest';
import { Disposable, type IDisposable, disposeAll, toDisposable } from '../../src/shared/dispose.ts';
import { Emitter } from '../../src/shared/event.ts';

class Holder extends Disposable {
  register<T extends IDisposable>(value: T): T {
    return this._register(value);
  }
}

describe('the one event emitter', () => {
  it('calls each listener, and stops when the subscription is called or disposed', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const a = emitter.event((n) => seen.push(`a${n}`));
    const b = emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    a();
    emitter.fire(2);
    b.dispose();
    emitter.fire(3);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('a listener added while firing waits for the next round; dispose drops every listener', () => {
    const emitter = new Emitter<void>();
    let late = 0;
    emitter.event(() => void emitter.event(() => late++));
    emitter.fire();
    expect(late).toBe(0);
    emitter.fire();
    expect(late).toBe(1);
    emitter.dispose();
    emitter.fire();
    expect(late).toBe(1);
  });
});

describe('the one disposable store', () => {
  it('disposes what it holds once, newest first, and at once what comes after', () => {
    const order: string[] = [];
    const holder = new Holder();
    holder.register(toDisposable(() => order.push('first')));
    holder.register(toDisposable(() => order.push('second')));
    holder.dispose();
    holder.dispose();
    expect(order).toEqual(['second', 'first']);
    holder.register(toDisposable(() => order.push('late')));
    expect(order).toEqual(['second', 'first', 'late']);
  });

  it('disposeAll empties the list it disposes', () => {
    let count = 0;
    const list = [toDisposable(() => count++), toDisposable(() => count++)];
    disposeAll(list);
    disposeAll(list);
    expect(count).toBe(2);
    expect(list).toEqual([]);
  });
});
