// Settings are declared once in package.json and typed once here. A bad value
// falls back to its default and is named, so the user learns which one to fix.
import { checkBaseUrl } from './urlPolicy.ts';

export interface KeywardConfig {
  router: { baseUrl: string };
  direct: { baseUrl: string };
  network: { connectTimeoutMs: number; idleTimeoutMs: number };
}

export const DEFAULT_CONFIG: KeywardConfig = {
  router: { baseUrl: 'https://openrouter.ai/api/v1' },
  direct: { baseUrl: 'https://api.openai.com/v1' },
  network: { connectTimeoutMs: 10_000, idleTimeoutMs: 60_000 },
};

export interface ConfigProblem {
  setting: string;
  message: string;
}

type Reader = (section: string) => unknown;

function baseUrl(read: Reader, setting: string, fallback: string, problems: ConfigProblem[]): string {
  const value = read(setting);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string') {
    problems.push({ setting: `keyward.${setting}`, message: 'must be a URL string' });
    return fallback;
  }
  const check = checkBaseUrl(value.trim());
  if (!check.ok) {
    problems.push({
      setting: `keyward.${setting}`,
      message: check.reason === 'insecure'
        ? `"${value}" uses http: a key would travel in clear text; use https (http is allowed only for localhost)`
        : `"${value}" is not a valid https URL`,
    });
    return fallback;
  }
  return value.trim().replace(/\/+$/, '');
}

function milliseconds(read: Reader, setting: string, fallback: number, min: number, max: number, problems: ConfigProblem[]): number {
  const value = read(setting);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    problems.push({ setting: `keyward.${setting}`, message: `must be a number of milliseconds from ${min} to ${max}` });
    return fallback;
  }
  return Math.round(value);
}

/** `read` gives the raw value of a setting below `keyward.` (e.g. "router.baseUrl"). */
export function normalizeConfig(read: Reader): { config: KeywardConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const config: KeywardConfig = {
    router: { baseUrl: baseUrl(read, 'router.baseUrl', DEFAULT_CONFIG.router.baseUrl, problems) },
    direct: { baseUrl: baseUrl(read, 'direct.baseUrl', DEFAULT_CONFIG.direct.baseUrl, problems) },
    network: {
      connectTimeoutMs: milliseconds(read, 'network.connectTimeoutMs', DEFAULT_CONFIG.network.connectTimeoutMs, 100, 300_000, problems),
      idleTimeoutMs: milliseconds(read, 'network.idleTimeoutMs', DEFAULT_CONFIG.network.idleTimeoutMs, 100, 3_600_000, problems),
    },
  };
  return { config, problems };
}
