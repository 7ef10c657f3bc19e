// A request's cost at most, reserved against the daily cap before sending: bytes sent bound the
// input tokens, the request's or the model's output limit bounds the rest; no price or no limit is unknown.
import { describe, expect, it } from 'vitest';
import { estimateCostUsd } from '../../../src/core/account/spendEstimate.ts';

const mini = { inputPerMillion: 0.15, outputPerMillion: 0.6, maxOutputTokens: 16_384, contextLength: 128_000 };

describe('estimateCostUsd', () => {
  it('prices the bytes sent as input tokens and the output limit as output tokens', () => {
    expect(estimateCostUsd(mini, 1_000, undefined)).toBeCloseTo((1_000 * 0.15 + 16_384 * 0.6) / 1e6);
    expect(estimateCostUsd(mini, 1_000, 100)).toBeCloseTo((1_000 * 0.15 + 100 * 0.6) / 1e6);
  });

  it('falls back to the context length for the output, and is unknown without prices or any limit', () => {
    expect(estimateCostUsd({ ...mini, maxOutputTokens: null }, 0, undefined)).toBeCloseTo((128_000 * 0.6) / 1e6);
    expect(estimateCostUsd({ ...mini, inputPerMillion: null }, 0, undefined)).toBe(Number.POSITIVE_INFINITY);
    expect(estimateCostUsd({ ...mini, maxOutputTokens: null, contextLength: null }, 0, undefined)).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(estimateCostUsd(undefined, 0, undefined)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a free model costs nothing', () => {
    expect(estimateCostUsd({ ...mini, inputPerMillion: 0, outputPerMillion: 0 }, 5_000, undefined)).toBe(0);
  });
});
