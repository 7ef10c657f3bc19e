// Settings are declared once in package.json and typed once here. A bad value
// falls back to its default and is named, so the user learns which one to fix.
import type { Tier } from './fees.ts';
import { DEFAULT_PROXY, type ProxyConfig } from './proxyConfig.ts';
import { checkBaseUrl } from './urlPolicy.ts';

export interface KeywardConfig {
  router: {
    baseUrl: string;
    keysUrl: string;
    creditsUrl: string;
    denyDataCollection: boolean;
    /** With a management key: alert when a key's spend today passes this many USD (0: no such alert). */
    spendAlertUsd: number;
  };
  direct: { baseUrl: string; keysUrl: string; billingUrl: string; usageTier: Tier | null };
  /** Any OpenAI-compatible endpoint; no base URL means it is not set up. */
  compatible: { name: string; baseUrl: string | null };
  /** Timeouts from Keyward's settings; the proxy from VS Code's http.* settings or the environment (proxyConfig.ts). */
  network: { connectTimeoutMs: number; idleTimeoutMs: number; requestTimeoutMs: number; proxy: ProxyConfig };
  status: { refreshMinutes: number };
  /** How files that git ignores are shown: as information, or not at all. */
  diagnostics: { ignoredFiles: IgnoredFilesLevel };
  scan: { maxFileSizeKb: number };
  /** Enter sends and Shift+Enter breaks the line (true), or the other way round. */
  chat: { enterSends: boolean };
  /** Ask before sending once answers today cost this much (USD, summed across services); null: no cap. */
  spend: { dailyCapUsd: number | null };
}

export type IgnoredFilesLevel = 'information' | 'off';
const IGNORED_FILES_LEVELS: IgnoredFilesLevel[] = ['information', 'off'];

export const DEFAULT_CONFIG: KeywardConfig = {
  router: {
    baseUrl: 'https://openrouter.ai/api/v1',
    keysUrl: 'https://openrouter.ai/settings/keys',
    creditsUrl: 'https://openrouter.ai/settings/credits',
    denyDataCollection: false,
    spendAlertUsd: 5,
  },
  direct: {
    baseUrl: 'https://api.openai.com/v1',
    keysUrl: 'https://platform.openai.com/api-keys',
    billingUrl: 'https://platform.openai.com/settings/organization/billing/overview',
    /** Not set until the person says: the service does not tell a key's tier. */
    usageTier: null,
  },
  compatible: { name: '', baseUrl: null },
  network: { connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, requestTimeoutMs: 600_000, proxy: DEFAULT_PROXY },
  status: { refreshMinutes: 5 },
  diagnostics: { ignoredFiles: 'information' },
  scan: { maxFileSizeKb: 1024 },
  chat: { enterSends: true },
  spend: { dailyCapUsd: null },
};

const TIER_NAMES: Tier[] = ['Free', 'Build', 'Launch', 'Grow'];

export interface ConfigProblem {
  setting: string;
  message: string;
}

type Reader = (section: string) => unknown;

/**
 * Not set: VS Code hands a setting the person never set as its declared default, and a declared type without a
 * default as that type's empty value ("" for a string: configurationRegistry.ts, getDefaultValue), never undefined.
 */
function unset(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

function baseUrl(read: Reader, setting: string, fallback: string, problems: ConfigProblem[]): string {
  return optionalBaseUrl(read, setting, problems, fallback) ?? fallback;
}

function optionalBaseUrl(
  read: Reader,
  setting: string,
  problems: ConfigProblem[],
  fallback: string | null = null,
): string | null {
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
      message:
        check.reason === 'insecure'
          ? `"${value}" uses http: a key would travel in clear text; use https (http is allowed only for localhost)`
          : `"${value}" is not a valid https URL`,
    });
    return fallback;
  }
  return value.trim().replace(/\/+$/, '');
}

/** A person's name for something, trimmed and kept short: it is shown in the status bar and the panel. */
function label(read: Reader, setting: string, problems: ConfigProblem[]): string {
  const value = read(setting);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    problems.push({ setting: `keyward.${setting}`, message: 'must be a string' });
    return '';
  }
  return value.trim().slice(0, 60);
}

function pageUrl(read: Reader, setting: string, fallback: string, problems: ConfigProblem[]): string {
  const value = read(setting);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string') {
    try {
      if (new URL(value).protocol === 'https:') return value;
    } catch {
      // named below
    }
  }
  problems.push({ setting: `keyward.${setting}`, message: 'must be an https URL' });
  return fallback;
}

function bool(read: Reader, setting: string, fallback: boolean, problems: ConfigProblem[]): boolean {
  const value = read(setting);
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  problems.push({ setting: `keyward.${setting}`, message: 'must be true or false' });
  return fallback;
}

function milliseconds(
  read: Reader,
  setting: string,
  fallback: number,
  min: number,
  max: number,
  problems: ConfigProblem[],
): number {
  const value = read(setting);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    problems.push({ setting: `keyward.${setting}`, message: `must be a number of milliseconds from ${min} to ${max}` });
    return fallback;
  }
  return Math.round(value);
}

function minutes(read: Reader, problems: ConfigProblem[]): number {
  const value = read('status.refreshMinutes');
  if (value === undefined || value === null) return DEFAULT_CONFIG.status.refreshMinutes;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1440) {
    problems.push({
      setting: 'keyward.status.refreshMinutes',
      message: 'must be a number of minutes from 0 (off) to 1440',
    });
    return DEFAULT_CONFIG.status.refreshMinutes;
  }
  return value;
}

function ignoredFiles(read: Reader, problems: ConfigProblem[]): IgnoredFilesLevel {
  const value = read('diagnostics.ignoredFiles');
  if (unset(value)) return DEFAULT_CONFIG.diagnostics.ignoredFiles;
  if (IGNORED_FILES_LEVELS.includes(value as IgnoredFilesLevel)) return value as IgnoredFilesLevel;
  problems.push({
    setting: 'keyward.diagnostics.ignoredFiles',
    message: `must be one of ${IGNORED_FILES_LEVELS.join(', ')}`,
  });
  return DEFAULT_CONFIG.diagnostics.ignoredFiles;
}

// Not a number used to mean no cap at all (every size compares false with NaN).
function kilobytes(read: Reader, problems: ConfigProblem[]): number {
  const value = read('scan.maxFileSizeKb');
  if (value === undefined || value === null) return DEFAULT_CONFIG.scan.maxFileSizeKb;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) {
    problems.push({ setting: 'keyward.scan.maxFileSizeKb', message: 'must be a number of kilobytes, at least 1' });
    return DEFAULT_CONFIG.scan.maxFileSizeKb;
  }
  return value;
}

function spendAlert(read: Reader, problems: ConfigProblem[]): number {
  const value = read('router.spendAlertUsd');
  if (value === undefined || value === null) return DEFAULT_CONFIG.router.spendAlertUsd;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    problems.push({ setting: 'keyward.router.spendAlertUsd', message: 'must be a number of US dollars, 0 or more' });
    return DEFAULT_CONFIG.router.spendAlertUsd;
  }
  return value;
}

function dailyCap(read: Reader, problems: ConfigProblem[]): number | null {
  const value = read('spend.dailyCapUsd');
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    problems.push({ setting: 'keyward.spend.dailyCapUsd', message: 'must be a number of US dollars, 0 or more' });
    return null;
  }
  return value;
}

/** One setting's values per level, as VS Code's `inspect()` gives them. */
export interface SettingLayers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * Privacy and safety settings: a workspace (a repository's .vscode/settings.json)
 * may make them stricter, never weaker. Each rule gives the stricter of the
 * value so far and a workspace's value; a workspace value of the wrong type counts for nothing.
 */
const STRICTER = {
  'router.denyDataCollection': (value: unknown, workspace: unknown) => (workspace === true ? true : value),
  'scan.maxFileSizeKb': (value: unknown, workspace: unknown) =>
    typeof workspace === 'number' && Number.isFinite(workspace) && (typeof value !== 'number' || workspace > value)
      ? workspace
      : value,
  'diagnostics.ignoredFiles': (value: unknown, workspace: unknown) =>
    workspace === 'information' ? 'information' : value,
  // A workspace may set a cap for itself, or a lower one; never raise the user's or lift it.
  'spend.dailyCapUsd': (value: unknown, workspace: unknown) =>
    typeof workspace === 'number' &&
    Number.isFinite(workspace) &&
    workspace >= 0 &&
    (typeof value !== 'number' || workspace < value)
      ? workspace
      : value,
} satisfies Record<string, (value: unknown, workspace: unknown) => unknown>;

export type GuardedSetting = keyof typeof STRICTER;

/** The defaults package.json declares, for a host that does not say. */
const GUARDED_DEFAULTS: Record<GuardedSetting, unknown> = {
  'router.denyDataCollection': false,
  'scan.maxFileSizeKb': 1024,
  'diagnostics.ignoredFiles': 'information',
  'spend.dailyCapUsd': null,
};
export const GUARDED_SETTINGS = Object.keys(STRICTER) as GuardedSetting[];

export function isGuardedSetting(name: string): name is GuardedSetting {
  return Object.hasOwn(STRICTER, name);
}

/**
 * Settings an untrusted folder must not set at all (package.json's `restrictedConfigurations`): the guarded ones,
 * and the network timeouts (a short but valid timeout from a repository would make every request fail).
 */
export const RESTRICTED_SETTINGS: readonly string[] = [
  ...GUARDED_SETTINGS,
  'network.connectTimeoutMs',
  'network.idleTimeoutMs',
  'network.requestTimeoutMs',
];

/** The layers with the workspace's values removed: what an untrusted folder says counts for nothing. */
export function withoutWorkspace(layers: SettingLayers): SettingLayers {
  return { defaultValue: layers.defaultValue, globalValue: layers.globalValue };
}

/** The user's value (or the default), made stricter by the workspace's values only. */
export function guardedValue(setting: GuardedSetting, layers: SettingLayers): unknown {
  let value = layers.globalValue ?? layers.defaultValue ?? GUARDED_DEFAULTS[setting];
  for (const workspace of [layers.workspaceValue, layers.workspaceFolderValue]) {
    if (workspace !== undefined) value = STRICTER[setting](value, workspace);
  }
  return value;
}

/** `read` gives the raw value of a setting below `keyward.` (e.g. "router.baseUrl"). */
export function normalizeConfig(read: Reader): { config: KeywardConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  // Unset, VS Code hands this setting (no default in the manifest: see accountStatus.ts) over as "".
  const tier = read('direct.usageTier');
  if (!unset(tier) && !TIER_NAMES.includes(tier as Tier))
    problems.push({ setting: 'keyward.direct.usageTier', message: `must be one of ${TIER_NAMES.join(', ')}` });
  const config: KeywardConfig = {
    router: {
      baseUrl: baseUrl(read, 'router.baseUrl', DEFAULT_CONFIG.router.baseUrl, problems),
      keysUrl: pageUrl(read, 'router.keysUrl', DEFAULT_CONFIG.router.keysUrl, problems),
      creditsUrl: pageUrl(read, 'router.creditsUrl', DEFAULT_CONFIG.router.creditsUrl, problems),
      denyDataCollection: bool(read, 'router.denyDataCollection', DEFAULT_CONFIG.router.denyDataCollection, problems),
      spendAlertUsd: spendAlert(read, problems),
    },
    direct: {
      baseUrl: baseUrl(read, 'direct.baseUrl', DEFAULT_CONFIG.direct.baseUrl, problems),
      keysUrl: pageUrl(read, 'direct.keysUrl', DEFAULT_CONFIG.direct.keysUrl, problems),
      billingUrl: pageUrl(read, 'direct.billingUrl', DEFAULT_CONFIG.direct.billingUrl, problems),
      usageTier: TIER_NAMES.includes(tier as Tier) ? (tier as Tier) : DEFAULT_CONFIG.direct.usageTier,
    },
    compatible: {
      name: label(read, 'compatible.name', problems),
      baseUrl: optionalBaseUrl(read, 'compatible.baseUrl', problems),
    },
    status: { refreshMinutes: minutes(read, problems) },
    diagnostics: { ignoredFiles: ignoredFiles(read, problems) },
    scan: { maxFileSizeKb: kilobytes(read, problems) },
    chat: { enterSends: bool(read, 'chat.enterSends', DEFAULT_CONFIG.chat.enterSends, problems) },
    spend: { dailyCapUsd: dailyCap(read, problems) },
    network: {
      connectTimeoutMs: milliseconds(
        read,
        'network.connectTimeoutMs',
        DEFAULT_CONFIG.network.connectTimeoutMs,
        100,
        300_000,
        problems,
      ),
      idleTimeoutMs: milliseconds(
        read,
        'network.idleTimeoutMs',
        DEFAULT_CONFIG.network.idleTimeoutMs,
        100,
        3_600_000,
        problems,
      ),
      requestTimeoutMs: milliseconds(
        read,
        'network.requestTimeoutMs',
        DEFAULT_CONFIG.network.requestTimeoutMs,
        1000,
        3_600_000,
        problems,
      ),
      proxy: DEFAULT_PROXY,
    },
  };
  return { config, problems };
}
