// What the routing service allows of free models: 20 requests in any minute and
// 50 (or 1,000) per UTC day, per account. The guard starts from the key check's
// free_model_daily_requests and counts its own free requests since, so callers
// can show "free 12/50" and wait out the minute window instead of collecting a 429.
import { Disposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';

export const FREE_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

export interface FreeDailyRequests {
  used: number;
  limit: number;
  remaining: number;
}

export interface FreeStatus {
  used: number;
  limit: number | null;
  remaining: number | null;
  /** Epoch ms of the next UTC midnight, when the daily count resets. */
  resetsAt: number;
  /** Requests in the last minute, as this guard counted them. */
  lastMinute: number;
}

export function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export class FreeModelGuard extends Disposable {
  private limit: number | null = null;
  private usedAtCheck = 0;
  private sinceCheck = 0;
  private day: string;
  private minute: number[] = [];
  private readonly changed = this._register(new Emitter<FreeStatus>());
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    super();
    this.now = now;
    this.day = utcDay(now());
  }

  /** The key check's figures replace what the guard counted. */
  updateFromKeyCheck(daily: FreeDailyRequests | null | undefined): void {
    this.rollDay();
    if (!daily) return;
    this.limit = daily.limit;
    this.usedAtCheck = daily.used;
    this.sinceCheck = 0;
    this.emit();
  }

  /** A 429 told us the day is used up, whatever we counted. */
  markDayExhausted(limit?: number): void {
    this.rollDay();
    if (limit !== undefined) this.limit = limit;
    if (this.limit !== null) {
      this.usedAtCheck = this.limit;
      this.sinceCheck = 0;
    }
    this.emit();
  }

  recordFreeRequest(): void {
    this.rollDay();
    this.sinceCheck += 1;
    this.minute.push(this.now());
    this.emit();
  }

  /** Milliseconds to wait before a free request fits the per-minute window (0: send now). */
  delayBeforeFreeRequest(): number {
    this.pruneMinute();
    if (this.minute.length < FREE_PER_MINUTE) return 0;
    return Math.max(0, this.minute[this.minute.length - FREE_PER_MINUTE]! + MINUTE_MS - this.now());
  }

  status(): FreeStatus {
    this.rollDay();
    this.pruneMinute();
    // Capped: exempt accounts and the key check's lag can count past the limit, and "1001/1000" reads as a bug.
    const counted = this.usedAtCheck + this.sinceCheck;
    const used = this.limit === null ? counted : Math.min(counted, this.limit);
    return {
      used,
      limit: this.limit,
      remaining: this.limit === null ? null : Math.max(0, this.limit - used),
      resetsAt: nextUtcMidnight(this.now()),
      lastMinute: this.minute.length,
    };
  }

  onDidChange(listener: (status: FreeStatus) => void): Subscription {
    return this.changed.event(listener);
  }

  private rollDay(): void {
    const today = utcDay(this.now());
    if (today !== this.day) {
      this.day = today;
      this.usedAtCheck = 0;
      this.sinceCheck = 0;
    }
  }

  private pruneMinute(): void {
    const cutoff = this.now() - MINUTE_MS;
    let drop = 0;
    while (drop < this.minute.length && this.minute[drop]! <= cutoff) drop++;
    if (drop > 0) this.minute = this.minute.slice(drop);
  }

  private emit(): void {
    this.changed.fire(this.status());
  }
}
