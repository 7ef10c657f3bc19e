// The services say "wait" in four dialects: Retry-After as seconds or an
// HTTP-date, X-RateLimit-Reset as epoch milliseconds, epoch seconds or a delta,
// and x-ratelimit-reset-* as Go durations ("6m0s", "12ms").

/** Seconds to wait from a Retry-After value, or undefined when it says nothing usable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - now) / 1000);
}

/** Seconds until an X-RateLimit-Reset value: epoch ms, epoch seconds, or a delta in seconds. */
export function parseRateLimitReset(value: string | number | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n) || n < 0) return undefined;
  if (n >= 1e12) return Math.max(0, (n - now) / 1000);
  if (n >= 1e9) return Math.max(0, n - now / 1000);
  return n;
}

const GO_DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/;

/** Seconds in a Go-style duration such as "1s", "6m0s", "1h2m3s" or "12ms". */
export function parseGoDuration(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const match = GO_DURATION.exec(value.trim());
  if (!match || match[0] === '') return undefined;
  const [, h, m, s, ms] = match;
  return Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0) + Number(ms ?? 0) / 1000;
}
