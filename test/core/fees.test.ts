import { describe, expect, it } from 'vitest';
import { allowanceUpgradeCost, cardFee, cryptoFee, formatDollars, tierInfo } from '../../src/core/fees.ts';

describe('fees and tiers', () => {
  it.each([
    [1, 0.8],
    [10, 0.8],
    [14.55, 0.8],
    [20, 1.1],
    [100, 5.5],
  ])('card fee on $%d is $%d', (credits, fee) => {
    expect(cardFee(credits)).toBe(fee);
  });

  it.each([
    [10, 0.5],
    [100, 5],
    [3, 0.15],
  ])('crypto fee on $%d is $%d', (credits, fee) => {
    expect(cryptoFee(credits)).toBe(fee);
  });

  it('prices the purchase that lifts the free allowance to 1,000 a day', () => {
    expect(allowanceUpgradeCost(50)).toEqual({ credits: 10, card: 10.8, crypto: 10.5 });
    expect(allowanceUpgradeCost(null)).toEqual({ credits: 10, card: 10.8, crypto: 10.5 });
    expect(allowanceUpgradeCost(1000)).toBeNull();
  });

  it("knows each tier's monthly limit and the next step", () => {
    expect(tierInfo('Free')).toEqual({ monthlyLimit: 100, next: { tier: 'Build', purchased: 5, monthlyLimit: 500 } });
    expect(tierInfo('Launch').next).toEqual({ tier: 'Grow', purchased: 500, monthlyLimit: 200_000 });
    expect(tierInfo('Grow')).toEqual({ monthlyLimit: 200_000, next: null });
  });

  it('formats dollars with cents and grouping', () => {
    expect([formatDollars(12.345), formatDollars(-1.5), formatDollars(200000)]).toEqual([
      '$12.35',
      '-$1.50',
      '$200,000.00',
    ]);
  });
});
