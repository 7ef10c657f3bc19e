// keyward status --service SERVICE [--base-url URL] [--json]
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG } from '../core/config.ts';
import type { ProxyConfig } from '../core/proxyConfig.ts';
import { ServiceError } from '../core/errors.ts';
import { redactSecrets } from '../core/redact.ts';
import { SERVICES, type ServiceId } from '../core/services/descriptors.ts';
import { serviceModule } from '../core/services/registry.ts';
import { maskKey } from '../shared/keyShapes.ts';
import { type CliIo, EXIT } from './io.ts';
import {
  BASE_URL_ENVS_HELP,
  KEY_SOURCES_HELP,
  NETWORK_HELP,
  NO_DEFAULT_BASE_URL,
  SERVICE_CHOICES,
  UsageError,
  baseUrlFor,
  errorJson,
  keyFor,
  proxyFor,
  reportUsage,
  serviceHelp,
  wrapHelp,
  serviceOption,
  writeError,
} from './common.ts';

export const STATUS_HELP = `Usage: keyward status --service ${SERVICE_CHOICES} [--base-url URL] [--json]

Checks the key without spending tokens.
${serviceHelp(2, (id) => SERVICES[id].cliHelp.status)}

${wrapHelp(`${KEY_SOURCES_HELP} Without --base-url, ${BASE_URL_ENVS_HELP} name the base URL (${NO_DEFAULT_BASE_URL} needs one).`)}
With --json every failure prints the JSON object, usage errors included.
${NETWORK_HELP}
Exit status: 0 checked, 1 service error (e.g. the key is not valid), 2 usage error.
`;

export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        service: { type: 'string' },
        'base-url': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    return reportUsage(
      io,
      'status',
      args.includes('--json'),
      new UsageError((error as Error).message, 'unknown_option'),
    );
  }
  if (values.help) {
    io.stdout.write(STATUS_HELP);
    return EXIT.ok;
  }
  let service: ServiceId;
  let baseUrl: string;
  let key: string;
  let proxy: ProxyConfig;
  try {
    service = serviceOption(values.service);
    baseUrl = baseUrlFor(service, values['base-url'], io.env);
    key = keyFor(service, io.env);
    proxy = proxyFor(io.env);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, 'status', values.json, error);
    throw error;
  }
  const connection = {
    baseUrl,
    key,
    connectTimeoutMs: DEFAULT_CONFIG.network.connectTimeoutMs,
    idleTimeoutMs: DEFAULT_CONFIG.network.idleTimeoutMs,
    proxy,
  };
  // The key check echoes fields of the service's choosing (the key's label): nothing key-shaped is printed.
  const out = { write: (text: string) => io.stdout.write(redactSecrets(text, key ? [key] : [])) };
  return serviceStatus(service, connection, out, io, values.json);
}

interface Connection {
  baseUrl: string;
  key: string;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  proxy: ProxyConfig;
}
type Out = { write(text: string): unknown };

/** The service module's key check and account figures (core/services/<id>.ts), as JSON or text. */
async function serviceStatus(
  service: ServiceId,
  connection: Connection,
  out: Out,
  io: CliIo,
  json: boolean,
): Promise<number> {
  const module = serviceModule(service);
  const client = await module.open(connection);
  try {
    const status = await module.cliStatus(client, connection.key === '' ? null : { masked: maskKey(connection.key) });
    out.write(json ? JSON.stringify({ ok: true, service, ...status.json }) + '\n' : status.text);
    return EXIT.ok;
  } catch (error) {
    return fail(io, error, json);
  } finally {
    await client.close();
  }
}

function fail(io: CliIo, error: unknown, json: boolean): number {
  if (!(error instanceof ServiceError)) throw error;
  if (json) io.stdout.write(errorJson(error) + '\n');
  else writeError(io, error);
  return EXIT.failure;
}
