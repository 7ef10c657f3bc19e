// Today's spend in this workspace, summed from the cost each answer reports, for the daily cap
// (keyward.spend.dailyCapUsd). A day is a UTC day, as the services count theirs (the routing service's usage_daily
// and its free count reset at UTC midnight). Only numbers are stored: a day, a total, a total per service and per
// calling extension. Requests that may run side by side (other extensions' through vscode.lm) reserve an estimate
// first (spendReservation.ts), held here in this process's memory and counted as spent until they settle.
import { Disposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';

export interface SpendDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  totalUsd: number;
  byService: Record<string, number>;
  /** What each other extension's requests (vscode.lm) cost, by extension id; absent when none. */
  byCaller?: Record<string, number>;
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

/** The finite amounts of a stored record, by name. */
function amounts(record: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (record && typeof record === 'object')
    for (const [name, usd] of Object.entries(record)) if (finite(usd)) out[name] = usd;
  return out;
}

const plus = (record: Record<string, number> | undefined, name: string, usd: number) => ({
  ...record,
  [name]: (record?.[name] ?? 0) + usd,
});

/** What was stored, if it is a day at all; anything else counts as nothing spent. */
function parse(raw: unknown): SpendDay | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { day, totalUsd, byService, byCaller } = raw as Partial<SpendDay>;
  if (typeof day !== 'string' || !finite(totalUsd)) return undefined;
  return { day, totalUsd, byService: amounts(byService), ...(byCaller ? { byCaller: amounts(byCaller) } : {}) };
}

export class SpendLedger extends Disposable {
  private readonly port: SpendPort;
  private readonly now: () => number;
  private readonly changed = this._register(new Emitter<SpendDay>());
  /** Answers end together: each record waits for the one before, so none is lost. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Estimates of the requests under way, and settled costs not yet written, counted as spent (spendReservation.ts). */
  readonly held = new Map<object, number>();

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
  record(service: string, costUsd: number | null | undefined, caller?: string): Promise<SpendDay> {
    const next = this.writing.then(async () => {
      const today = this.today();
      if (!finite(costUsd) || costUsd === 0) return today;
      const updated: SpendDay = {
        ...today,
        totalUsd: today.totalUsd + costUsd,
        byService: plus(today.byService, service, costUsd),
      };
      if (caller !== undefined) updated.byCaller = plus(today.byCaller, caller, costUsd);
      await this.port.set(updated);
      this.changed.fire(updated);
      return updated;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** Today's spend with what requests under way hold. */
  committed(): number {
    let held = 0;
    for (const usd of this.held.values()) held += usd;
    return this.today().totalUsd + held;
  }

  /** Whether today's spend, with what requests under way hold, has reached the cap; no cap (null) never is. */
  reached(capUsd: number | null): boolean {
    return capUsd !== null && this.committed() >= capUsd;
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
