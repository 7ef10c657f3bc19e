// A request's estimate held against the daily cap until it ends (the language-model provider's requests run side
// by side). The check and the hold are one synchronous step, so twenty requests at once cannot all pass a cap one
// of them reaches; the request settles with the cost the service reported, or releases the hold when nothing was
// charged. Loaded with the request handling (dist/lmRequests.js), not at activation.
import type { SpendLedger } from './spendLedger.ts';

export interface Reservation {
  /** Records what the request cost (nothing when not reported) and frees the estimate. */
  settle(costUsd: number | null | undefined): Promise<void>;
  /** Frees the estimate: the request was not sent, or failed with nothing charged. */
  release(): void;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Holds the estimate if the cap is not reached yet; undefined when it is. An estimate that is not a finite number
 * (the price is unknown) holds all that is left below the cap. So a day spends at most the cap plus the last
 * request let through (its estimate, when estimates are upper bounds).
 */
export function reserveSpend(
  ledger: SpendLedger,
  capUsd: number | null,
  estimateUsd: number,
  service: string,
  caller?: string,
): Reservation | undefined {
  if (ledger.reached(capUsd)) return undefined;
  const left = capUsd === null ? 0 : capUsd - ledger.committed();
  const hold = {};
  ledger.held.set(hold, finite(estimateUsd) ? estimateUsd : left);
  let open = true;
  return {
    settle: async (costUsd) => {
      if (!open) return;
      open = false;
      // The cost stays held until it is written, so no request slips through between the two.
      ledger.held.set(hold, finite(costUsd) ? costUsd : 0);
      try {
        await ledger.record(service, costUsd, caller);
      } finally {
        ledger.held.delete(hold);
      }
    },
    release: () => {
      open = false;
      ledger.held.delete(hold);
    },
  };
}
