import { describe, expect, it } from 'vitest';
import { parseGoDuration, parseRateLimitReset, parseRetryAfter } from '../../src/core/waitTimes.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('wait times', () => {
  it.each([
    ['120', 120],
    ['1.5', 1.5],
    [new Date(NOW + 90_000).toUTCString(), 90],
    [new Date(NOW - 5_000).toUTCString(), 0],
    ['soon', undefined],
    [undefined, undefined],
  ])('Retry-After %j -> %j s', (value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });

  it.each([
    [String(NOW + 30_000), 30],
    [String(NOW / 1000 + 45), 45],
    ['12', 12],
    [NOW + 1000, 1],
    ['', undefined],
    ['-3', undefined],
    ['x', undefined],
  ])('X-RateLimit-Reset %j -> %j s', (value, seconds) => {
    expect(parseRateLimitReset(value, NOW)).toBe(seconds);
  });

  it.each([
    ['1s', 1],
    ['6m0s', 360],
    ['1h2m3s', 3723],
    ['12ms', 0.012],
    ['0.5s', 0.5],
    ['2m', 120],
    ['', undefined],
    ['6 minutes', undefined],
  ])('Go duration %j -> %j s', (value, seconds) => {
    expect(parseGoDuration(value)).toBe(seconds);
  });
});
