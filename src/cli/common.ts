// What the CLI's commands share: options, keys from the environment, and the
// one way errors are printed (text on stderr, or the JSON contract).
import { DEFAULT_CONFIG } from '../core/config.ts';
import type { ServiceError } from '../core/errors.ts';
import { checkBaseUrl } from '../core/urlPolicy.ts';
import type { CliIo } from './run.ts';

export class UsageError extends Error {}

export const KEY_ENV = { router: 'OPENROUTER_API_KEY', direct: 'OPENAI_API_KEY' } as const;

export function serviceOption(value: string | undefined): 'router' | 'direct' {
  if (value === 'router' || value === 'direct') return value;
  throw new UsageError(value === undefined ? '--service is required (router or direct)' : `--service must be router or direct, not "${value}"`);
}

export function baseUrlFor(service: 'router' | 'direct', value: string | undefined): string {
  if (value === undefined) return DEFAULT_CONFIG[service].baseUrl;
  const check = checkBaseUrl(value);
  if (!check.ok) {
    throw new UsageError(check.reason === 'insecure'
      ? `--base-url ${value} uses http: a key would travel in clear text; use https (http is allowed only for localhost)`
      : `--base-url ${value} is not a valid https URL`);
  }
  return value.replace(/\/+$/, '');
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export function errorJson(error: ServiceError, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ok: false, error: error.toData(), ...(error.partialText ? { text: error.partialText } : {}), ...extra });
}

export function writeError(io: CliIo, error: ServiceError): void {
  const status = error.status === null ? '' : ` (HTTP ${error.status}${error.code ? `, ${error.code}` : ''})`;
  io.stderr.write(`keyward: ${error.kind}${status}: ${error.message}\n  what to do: ${error.action}\n`);
  if (error.retryAfterSeconds !== null && error.kind !== 'cancelled') io.stderr.write(`  retry after: ${Math.ceil(error.retryAfterSeconds)} s\n`);
}
