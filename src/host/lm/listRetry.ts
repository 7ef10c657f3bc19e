// When VS Code should ask for Keyward's model lists again. VS Code asks a provider for its models when the provider
// says they changed, and keeps the answer until the next such event: a list that failed on a passing fault (the
// network, the service's 5xx) would keep Keyward's models out of every picker until a key or a setting changed. So
// such a failure schedules the question again, later each time, until a round of lists has none. Built with the
// request handling (lmRequests.ts, loaded on demand): the provider loads it on the first failed list.
import type { ModelList } from '../../core/chat/modelCatalog.ts';
import type { ErrorKind } from '../../shared/errorKinds.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import type { Log } from '../log.ts';

/** Failures that pass by themselves; a refused key or a redirect does not, and a change of either tells VS Code. */
const PASSING: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'network',
  'timeout',
  'server',
  'rate_limit',
  'stream_interrupted',
]);
/** The waits before asking again after such a failure; the last repeats. */
export const LIST_RETRY_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000];

export class ListRetry extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private readonly ask: () => void;
  private readonly log: Log;

  constructor(ask: () => void, log: Log) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
    this.ask = ask;
    this.log = log;
  }

  /** After a round of lists: one passing failure schedules the question (once at a time); none starts the waits over. */
  after(lists: readonly (ModelList | undefined)[]): void {
    if (!lists.some((list) => list?.error !== undefined && PASSING.has(list.error.kind))) {
      this.failures = 0;
      return;
    }
    if (this.timer !== undefined || this.isDisposed) return;
    const wait = LIST_RETRY_MS[Math.min(this.failures, LIST_RETRY_MS.length - 1)]!;
    this.failures++;
    this.log.info(`Language models: asking for the model lists again in ${wait / 1000} s.`);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ask();
    }, wait);
  }

  /** The lists are asked for anyway (a key or a setting changed): nothing pending, the waits start over. */
  reset(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.failures = 0;
  }
}
