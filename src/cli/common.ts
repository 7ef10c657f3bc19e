// What the CLI's commands share: options, keys and base URLs from the
// environment, and the one way errors are printed (text on stderr, or the JSON
// contract). With --json every failure prints the JSON object, usage errors too.
import type { ServiceError } from '../core/errors.ts';
import { redactSecrets } from '../core/redact.ts';
import { SERVICES, SERVICE_IDS } from '../core/services/descriptors.ts';
import { type ProxyConfig, proxyFromEnv } from '../core/proxyConfig.ts';
import { checkBaseUrl } from '../core/urlPolicy.ts';
import type { ErrorKind } from '../shared/errorKinds.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import type { CliIo } from './io.ts';

/**
 * The kinds a usage error prints in `--json`: `insecure_url` for a base URL
 * that would send the key in clear text (or is no URL), `usage` for the rest.
 * `usage` exists only in the CLI: a service call never fails with it.
 */
export type UsageKind = Extract<ErrorKind, 'insecure_url'> | 'usage';

export class UsageError extends Error {
  readonly kind: UsageKind;
  readonly code: string;
  constructor(message: string, code = 'invalid_option', kind: UsageKind = 'usage') {
    // An option's value can hold a secret (a key pasted into a URL): never echo one.
    super(redactSecrets(message));
    this.kind = kind;
    this.code = code;
  }
}

const byService = <T>(pick: (id: ServiceId) => T) =>
  Object.fromEntries(SERVICE_IDS.map((id) => [id, pick(id)])) as Record<ServiceId, T>;

export const KEY_ENV = byService((id) => SERVICES[id].env.key);
/** The official SDKs' base-URL variables (and Keyward's own for compatible), honoured when --base-url is absent. */
export const BASE_URL_ENV = byService((id) => SERVICES[id].env.baseUrl);
export const SERVICE_CHOICES = SERVICE_IDS.join('|');

/** "A, B or C": a list of every service's something, as a sentence has it. */
function inWords(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** One help entry per service, `id: text`, continuation lines under the text: the help lists whatever services exist. */
export function serviceHelp(indent: number, text: (id: ServiceId) => string): string {
  return SERVICE_IDS.map((id) => {
    const pad = ' '.repeat(indent);
    return `${pad}${id}: ${text(id)
      .split('\n')
      .join(`\n${pad}${' '.repeat(id.length + 2)}`)}`;
  }).join('\n');
}

/** Breaks a paragraph built from the services' rows into lines of the help's width. */
export function wrapHelp(text: string, width = 86): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** Where `keyward ask` and `keyward status` take each service's key from, for their help. */
export const KEY_SOURCES_HELP = `The key comes from ${inWords(
  SERVICE_IDS.map((id) => `${KEY_ENV[id]} (${id}${SERVICES[id].capabilities.keyOptional ? ', optional' : ''})`),
)}.`;

/** The base-URL variables, and the services without a default base URL (whose URL is required). */
export const BASE_URL_ENVS_HELP = SERVICE_IDS.map((id) => BASE_URL_ENV[id]).join(' / ');
export const NO_DEFAULT_BASE_URL = inWords(SERVICE_IDS.filter((id) => SERVICES[id].defaultBaseUrl === null));
export const TIMEOUT_ENV = { request: 'KEYWARD_TIMEOUT_MS', idle: 'KEYWARD_IDLE_TIMEOUT_MS' } as const;

export function serviceOption(value: string | undefined): ServiceId {
  const found = SERVICE_IDS.find((id) => id === value);
  if (found) return found;
  const choices = `${SERVICE_IDS.slice(0, -1).join(', ')} or ${SERVICE_IDS.at(-1)}`;
  throw new UsageError(
    value === undefined ? `--service is required (${choices})` : `--service must be ${choices}, not "${value}"`,
    value === undefined ? 'missing_option' : 'invalid_option',
  );
}

/** --base-url, else the SDK's environment variable, else the real service; https only, except loopback. */
/** The help's paragraph on proxies and certificates, shared by ask and status. */
export const NETWORK_HELP = `Behind a proxy: https_proxy / HTTPS_PROXY (else http_proxy / HTTP_PROXY; host:port
means http://host:port, user:password@ for proxy authorisation), no_proxy / NO_PROXY
(hosts that go straight). Plain http (localhost only) never goes through a proxy.
Certificates: Node's own, NODE_EXTRA_CA_CERTS and the system store (KEYWARD_SYSTEM_CA=0: not
the system store).`;

/**
 * The proxy and certificate settings from the environment (HTTPS_PROXY, NO_PROXY, lower case first); a proxy
 * variable that is set but not a proxy URL is a usage error, not a silent direct connection.
 */
export function proxyFor(env: NodeJS.ProcessEnv = {}): ProxyConfig {
  const { proxy, problems } = proxyFromEnv(env);
  const problem = problems[0];
  if (problem) throw new UsageError(`${problem.setting} ${problem.message}`, 'invalid_proxy');
  return proxy;
}

export function baseUrlFor(service: ServiceId, flag: string | undefined, env: NodeJS.ProcessEnv = {}): string {
  const fromEnv = env[BASE_URL_ENV[service]];
  const value = flag ?? (fromEnv === undefined || fromEnv.trim() === '' ? undefined : fromEnv.trim());
  if (value === undefined) {
    const fallback = SERVICES[service].defaultBaseUrl;
    if (fallback === null)
      throw new UsageError(
        `--base-url is required for --service ${service} (or set ${BASE_URL_ENV[service]})`,
        'missing_option',
      );
    return fallback;
  }
  const source = flag !== undefined ? '--base-url' : BASE_URL_ENV[service];
  const check = checkBaseUrl(value);
  if (!check.ok) {
    throw new UsageError(
      check.reason === 'insecure'
        ? `${source} ${value} uses http: a key would travel in clear text; use https (http is allowed only for localhost)`
        : `${source} ${value} is not a valid https URL`,
      check.reason,
      'insecure_url',
    );
  }
  return value.replace(/\/+$/, '');
}

/** A wait in milliseconds from a flag, else an environment variable, else the default. */
export function millisecondsOption(
  flag: string | undefined,
  flagName: string,
  env: NodeJS.ProcessEnv,
  envName: string,
  fallback: number,
): number {
  const raw = flag ?? env[envName];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < 100 || value > 86_400_000) {
    throw new UsageError(
      `${flag !== undefined ? flagName : envName} must be a whole number of milliseconds from 100 to 86400000, not "${raw}"`,
    );
  }
  return value;
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export function errorJson(error: ServiceError, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ok: false,
    error: error.toData(),
    ...(error.partialText ? { text: error.partialText } : {}),
    ...extra,
  });
}

/** A usage error in the JSON contract: the same fields as a service error. */
export function usageJson(error: UsageError, command: string): string {
  return JSON.stringify({
    ok: false,
    error: {
      kind: error.kind,
      status: null,
      code: error.code,
      message: error.message,
      action: `Run "keyward ${command} --help" for the options.`,
      retryAfterSeconds: null,
    },
  });
}

export function writeError(io: CliIo, error: ServiceError): void {
  const status = error.status === null ? '' : ` (HTTP ${error.status}${error.code ? `, ${error.code}` : ''})`;
  io.stderr.write(`keyward: ${error.kind}${status}: ${error.message}\n  what to do: ${error.action}\n`);
  if (error.retryAfterSeconds !== null && error.kind !== 'cancelled')
    io.stderr.write(`  retry after: ${Math.ceil(error.retryAfterSeconds)} s\n`);
}

/** Prints a usage error the way the command was asked to print (JSON on stdout, or text on stderr) and gives exit status 2. */
export function reportUsage(io: CliIo, command: string, json: boolean, error: UsageError): 2 {
  if (json) io.stdout.write(usageJson(error, command) + '\n');
  else io.stderr.write(`keyward ${command}: ${error.message}\nRun "keyward ${command} --help" for the options.\n`);
  return 2;
}

/**
 * The key from the service's environment variable. A service whose key is
 * optional goes without one (no Authorization header); the others need it.
 */
export function keyFor(service: ServiceId, env: NodeJS.ProcessEnv): string {
  const key = env[KEY_ENV[service]]?.trim() ?? '';
  if (!key && !SERVICES[service].capabilities.keyOptional)
    throw new UsageError(`set ${KEY_ENV[service]} to the ${SERVICES[service].displayName} key`, 'missing_key');
  return key;
}
