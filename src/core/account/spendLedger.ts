// Today's spend in this workspace, summed from the cost each answer reports (any service), for the daily cap
// (keyward.spend.dailyCapUsd). A day is a UTC day, as the services count theirs (the routing service's usage_daily
// and its free count reset at UTC midnight). Only numbers are stored: a day, a total, a total per service.
import { Disposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';

export interface SpendDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  totalUsd: number;
  byService: Record<string, number>;
}

/** Where the day is kept (the workspace's state in the editor). */
export interface SpendPort {
  get(): unknown;
  set(value: SpendDay): PromiseLike<void>;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** What was stored, if it is a day at all; anything else counts as nothing spent. */
function parse(raw: unknown): SpendDay | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { day, totalUsd, byService } = raw as Partial<SpendDay>;
  if (typeof day !== 'string' || !finite(totalUsd)) return undefined;
  const services: Record<string, number> = {};
  if (byService && typeof byService === 'object')
    for (const [service, usd] of Object.entries(byService)) if (finite(usd)) services[service] = usd;
  return { day, totalUsd, byService: services };
}

export class SpendLedger extends Disposable {
  private readonly port: SpendPort;
  private readonly now: () => number;
  private readonly changed = this._register(new Emitter<SpendDay>());
  /** Answers end together: each record waits for the one before, so none is lost. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(port: SpendPort, now: () => number = Date.now) {
    super();
    this.port = port;
    this.now = now;
  }

  /** Today's spend; yesterday's total is not today's. */
  today(): SpendDay {
    const day = utcDay(this.now());
    const stored = parse(this.port.get());
    return stored?.day === day ? stored : { day, totalUsd: 0, byService: {} };
  }

  /** Adds an answer's reported cost; a cost the service did not report (null) adds nothing. */
  record(service: string, costUsd: number | null | undefined): Promise<SpendDay> {
    const next = this.writing.then(async () => {
      const today = this.today();
      if (!finite(costUsd) || costUsd === 0) return today;
      const updated: SpendDay = {
        day: today.day,
        totalUsd: today.totalUsd + costUsd,
        byService: { ...today.byService, [service]: (today.byService[service] ?? 0) + costUsd },
      };
      await this.port.set(updated);
      this.changed.fire(updated);
      return updated;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** Whether today's spend has reached the cap; no cap (null) is never reached. */
  reached(capUsd: number | null): boolean {
    return capUsd !== null && this.today().totalUsd >= capUsd;
  }

  onDidChange(listener: (day: SpendDay) => void): Subscription {
    return this.changed.event(listener);
  }
}

/** Dollars as the status tooltip and the question show them: cents, or up to six places under a cent (a free-tier
 * answer costs millionths). */
export function usd(amount: number): string {
  if (amount > 0 && amount < 0.01) return `$${amount.toFixed(6).replace(/0+$/, '')}`;
  return `$${amount.toFixed(2)}`;
}
