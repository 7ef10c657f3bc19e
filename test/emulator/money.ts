// Dollar amounts as floats, rounded so that repeated small charges do not drift.
export function money(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/** A dated lot of credit that may expire; spending draws the oldest first. */
export interface CreditLot {
  amount: number;
  remaining: number;
  at: number;
  expiresAt: number | null;
  source: string;
}

export function liveLots(lots: CreditLot[], now: number): CreditLot[] {
  return lots.filter((lot) => lot.remaining > 0 && (lot.expiresAt === null || lot.expiresAt > now));
}

export function lotsTotal(lots: CreditLot[], now: number): number {
  return money(liveLots(lots, now).reduce((sum, lot) => sum + lot.remaining, 0));
}

/** Draws `amount` from live lots in order; returns what no lot could cover. */
export function drawFromLots(lots: CreditLot[], amount: number, now: number): number {
  let left = amount;
  for (const lot of liveLots(lots, now)) {
    if (left <= 0) break;
    const take = Math.min(lot.remaining, left);
    lot.remaining = money(lot.remaining - take);
    left = money(left - take);
  }
  return left;
}
