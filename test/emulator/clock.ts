// Time the emulator runs on. Tests move it forward instead of waiting for a
// minute window, a UTC day or a year of credit lifetime to pass.
export class EmulatorClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "5m", "2h", "1d", "365d", "1d12h" or a number of milliseconds. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let total = 0;
  let rest = value.trim();
  while (rest.length > 0) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)/.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2]!] ?? 0);
    rest = rest.slice(match[0].length);
  }
  return total;
}

export const DAY_MS = 86_400_000;
export const YEAR_MS = 365 * DAY_MS;

export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export function utcMonth(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}

export function nextUtcMidnight(epochMs: number): number {
  const d = new Date(epochMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/** Monday 00:00 UTC of the week holding epochMs. */
export function utcWeekStart(epochMs: number): number {
  const d = new Date(epochMs);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return midnight - ((d.getUTCDay() + 6) % 7) * DAY_MS;
}

/** Go-style duration as the direct service prints it in x-ratelimit-reset-*: "1s", "6m0s", "12ms". */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const totalSeconds = Math.ceil(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
