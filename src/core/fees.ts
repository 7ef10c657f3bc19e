// The seeds' money rules: the routing service's purchase fees and free-model
// allowance, and the direct service's usage tiers.
export const CARD_FEE_RATE = 0.055;
export const CARD_FEE_MIN = 0.8;
export const CRYPTO_FEE_RATE = 0.05;
export const FREE_ALLOWANCE_THRESHOLD = 10;
export const FREE_PER_DAY_LOW = 50;
export const FREE_PER_DAY_HIGH = 1000;

const cents = (n: number) => Math.round(n * 100) / 100;

export function cardFee(credits: number): number {
  return cents(Math.max(CARD_FEE_MIN, credits * CARD_FEE_RATE));
}

export function cryptoFee(credits: number): number {
  return cents(credits * CRYPTO_FEE_RATE);
}

/** What buying enough credits to reach the 1,000-a-day free allowance costs, or null when it is reached. */
export function allowanceUpgradeCost(
  dailyLimit: number | null,
): { credits: number; card: number; crypto: number } | null {
  if (dailyLimit !== null && dailyLimit >= FREE_PER_DAY_HIGH) return null;
  const credits = FREE_ALLOWANCE_THRESHOLD;
  return { credits, card: cents(credits + cardFee(credits)), crypto: cents(credits + cryptoFee(credits)) };
}

export type Tier = 'Free' | 'Build' | 'Launch' | 'Grow';

export const TIERS: { tier: Tier; purchased: number; monthlyLimit: number }[] = [
  { tier: 'Free', purchased: 0, monthlyLimit: 100 },
  { tier: 'Build', purchased: 5, monthlyLimit: 500 },
  { tier: 'Launch', purchased: 100, monthlyLimit: 5_000 },
  { tier: 'Grow', purchased: 500, monthlyLimit: 200_000 },
];

export function tierInfo(tier: Tier): {
  monthlyLimit: number;
  next: { tier: Tier; purchased: number; monthlyLimit: number } | null;
} {
  const index = TIERS.findIndex((t) => t.tier === tier);
  return { monthlyLimit: TIERS[index]!.monthlyLimit, next: TIERS[index + 1] ?? null };
}

export function formatDollars(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}$${Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
