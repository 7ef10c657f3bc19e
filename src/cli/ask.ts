// keyward ask --service SERVICE --model ID [--base-url URL] [--json] [--no-stream]
//             [--timeout MS] [--idle-timeout MS] [--redact] [PROMPT|-]
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG } from '../core/config.ts';
import type { ProxyConfig } from '../core/proxyConfig.ts';
import { SERVICES, SERVICE_IDS, type ServiceId } from '../core/services/descriptors.ts';
import { defaultModel } from '../shared/serviceIds.ts';
import { serviceModule } from '../core/services/registry.ts';
import { ServiceError, toServiceError } from '../core/errors.ts';
import { type GuardHit, type Guarded, guardPrompt } from '../core/guards/secretGuard.ts';
import { runGuardedPrompt } from '../core/chat/guardedPrompt.ts';
import type { CompletionResult, ReportedUsage, TextStream } from '../core/wire/textStream.ts';
import { type CliIo, EXIT } from './io.ts';
import {
  BASE_URL_ENVS_HELP,
  KEY_ENV,
  KEY_SOURCES_HELP,
  NETWORK_HELP,
  NO_DEFAULT_BASE_URL,
  SERVICE_CHOICES,
  TIMEOUT_ENV,
  UsageError,
  baseUrlFor,
  errorJson,
  keyFor,
  proxyFor,
  millisecondsOption,
  readAll,
  reportUsage,
  serviceHelp,
  wrapHelp,
  serviceOption,
  writeError,
} from './common.ts';

const MODEL_EXAMPLES = SERVICE_IDS.map((id) => defaultModel(id))
  .filter((model) => model !== '')
  .join(' or ');

export const ASK_HELP = `Usage: keyward ask --service ${SERVICE_CHOICES} --model ID [options] [PROMPT|-]

Sends PROMPT (or standard input, with "-" or when no prompt is given and input is piped)
to the service and streams the answer to standard output.

Options:
  --service ${SERVICE_CHOICES}
                           which service (required):
${serviceHelp(27, (id) => SERVICES[id].cliHelp.about)}
  --model ID               model id, e.g. ${MODEL_EXAMPLES} (required)
  --base-url URL           the service's base URL (https, or http on localhost); default
                           ${BASE_URL_ENVS_HELP},
                           else the real service (${NO_DEFAULT_BASE_URL}: none, required)
  --json                   print one JSON object at the end instead of streaming
                           (every failure too, usage errors included)
  --no-stream              ask for the whole answer at once
  --timeout MS             how long a whole answer (--no-stream) may take to start,
                           in milliseconds (default ${DEFAULT_CONFIG.network.requestTimeoutMs}; ${TIMEOUT_ENV.request})
  --idle-timeout MS        how long a stream may stay silent, in milliseconds
                           (default ${DEFAULT_CONFIG.network.idleTimeoutMs}; ${TIMEOUT_ENV.idle})
  --redact                 send a prompt that holds a key with each key replaced by
                           "[redacted key <masked>]" (without it such a prompt is
                           refused: exit 4, nothing sent)
  -h, --help               show this help

${wrapHelp(`${KEY_SOURCES_HELP} Without an optional key no Authorization header is sent.`)}
A prompt is checked for keys before anything is sent, as the editor's chat does:
key shapes of every service, and the exact value of each key variable above
that is set (a key without a fixed shape is found that way). A key found is named by
where it is (argument or standard input, line and column, masked) and nothing
is sent (kind key_in_prompt in --json), unless --redact is given.
A refusal is printed as the answer, marked on standard error; --json gives it as
"refusal", and why the answer ended as "finishReason" (stop, length,
content_filter, tool_calls, error, other).
${NETWORK_HELP}
Exit status: 0 answered, 1 service error, 2 usage error, 3 no usable answer (the
model declined, or the provider's content filter stopped it), 4 a key in the
prompt (nothing sent), 130 interrupted.
`;

/** What `keyward ask` was asked: the service, its connection, and the prompt with where it came from. */
interface AskOptions {
  values: ReturnType<typeof parse>['values'];
  prompt: string;
  from: string;
  service: ServiceId;
  connection: { baseUrl: string; key: string; requestTimeoutMs: number; idleTimeoutMs: number; proxy: ProxyConfig };
}

export async function askCommand(args: string[], io: CliIo): Promise<number> {
  // Known before parsing, so a parse error is reported in the form asked for.
  const json = args.includes('--json');
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(args));
  } catch (error) {
    return reportUsage(io, 'ask', json, new UsageError((error as Error).message, 'unknown_option'));
  }
  if (values.help) {
    io.stdout.write(ASK_HELP);
    return EXIT.ok;
  }
  let asked: AskOptions;
  try {
    asked = await askOptions(values, positionals, io);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, 'ask', values.json, error);
    throw error;
  }
  let hits: readonly GuardHit[] = [];
  let stream: TextStream | undefined;
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const module = serviceModule(asked.service);
  let client: Awaited<ReturnType<typeof module.open>> | undefined;
  try {
    // No spend cap here: the CLI keeps no ledger, and a CI job's budget is the service's own limit.
    const outcome = await runGuardedPrompt<Guarded, CompletionResult & { ended: boolean }>({
      guard: async () => {
        const guarded = await guardAsk(asked, io, (found) => (hits = found));
        if (guarded) client = await module.open({ ...asked.connection, connectTimeoutMs: CONNECT_TIMEOUT_MS });
        return guarded;
      },
      prompt: (guarded) => {
        stream = module.prompt(
          client!,
          { model: values.model!, turns: [], text: guarded.prompt },
          {
            signal: controller.signal,
            stream: !values['no-stream'],
            onRetry: (notice: { error: ServiceError; delayMs: number }) => {
              if (!values.json)
                io.stderr.write(
                  `keyward: ${notice.error.kind.replace(/_/g, ' ')}; trying again in ${Math.ceil(notice.delayMs / 1000)} s...\n`,
                );
            },
          },
        );
        return streamAnswer(io, values.json, stream);
      },
    });
    if (!outcome.sent) return refuseKeys(io, values.json, asked.from, hits);
    return written(io, asked, outcome.result);
  } catch (error) {
    if (!stream) throw error;
    return failed(io, asked, stream, error);
  } finally {
    process.removeListener('SIGINT', onSignal);
    await client?.close();
  }
}

const CONNECT_TIMEOUT_MS = DEFAULT_CONFIG.network.connectTimeoutMs;

/** The options read and checked, and the prompt read; a UsageError names what is wrong. */
async function askOptions(
  values: ReturnType<typeof parse>['values'],
  positionals: string[],
  io: CliIo,
): Promise<AskOptions> {
  const service = serviceOption(values.service);
  if (!values.model) throw new UsageError('--model is required', 'missing_option');
  const baseUrl = baseUrlFor(service, values['base-url'], io.env);
  const requestTimeoutMs = millisecondsOption(
    values.timeout,
    '--timeout',
    io.env,
    TIMEOUT_ENV.request,
    DEFAULT_CONFIG.network.requestTimeoutMs,
  );
  const idleTimeoutMs = millisecondsOption(
    values['idle-timeout'],
    '--idle-timeout',
    io.env,
    TIMEOUT_ENV.idle,
    DEFAULT_CONFIG.network.idleTimeoutMs,
  );
  const key = keyFor(service, io.env);
  const proxy = proxyFor(io.env);
  if (positionals.length > 1)
    throw new UsageError('give the prompt as one argument (quote it), or "-" to read standard input');
  const source = positionals[0];
  const piped = !(io.stdin as { isTTY?: boolean }).isTTY;
  let prompt: string;
  let from = 'the prompt argument';
  if (source === '-' || (source === undefined && piped)) {
    prompt = await readAll(io.stdin);
    from = 'standard input';
  } else if (source !== undefined) prompt = source;
  else throw new UsageError('no prompt: give one as an argument, or pipe it in with "-"', 'no_prompt');
  if (prompt.trim() === '') throw new UsageError('the prompt is empty', 'no_prompt');
  return { values, prompt, from, service, connection: { baseUrl, key, requestTimeoutMs, idleTimeoutMs, proxy } };
}

/**
 * The chat's secret guard (core/guards/secretGuard.ts): key shapes, and every key this process was given by exact
 * value, whatever its shape. --redact is the person's answer given in advance; without it a key refuses the prompt.
 */
async function guardAsk(
  asked: AskOptions,
  io: CliIo,
  found: (hits: readonly GuardHit[]) => void,
): Promise<Guarded | undefined> {
  const known = SERVICE_IDS.flatMap((id) => {
    const value = io.env[KEY_ENV[id]]?.trim();
    return value ? [{ value, service: id }] : [];
  });
  let hits: readonly GuardHit[] = [];
  const guarded = await guardPrompt(asked.prompt, [], { known }, (_names, where) => {
    hits = where;
    found(where);
    return Promise.resolve(asked.values.redact ? 'redact' : 'cancel');
  });
  if (guarded && hits.length > 0 && !asked.values.json)
    io.stderr.write(`keyward ask: ${keyCount(hits)} redacted before sending (${placeOf(asked.from, hits)})\n`);
  return guarded;
}

/** The answer as it streams to standard output (not with --json); whether it ended its last line. */
async function streamAnswer(
  io: CliIo,
  json: boolean,
  stream: TextStream,
): Promise<CompletionResult & { ended: boolean }> {
  let ended = true;
  for await (const delta of stream) {
    if (!json) io.stdout.write(delta);
    ended = delta.endsWith('\n');
  }
  return { ...(await stream.result), ended };
}

function written(io: CliIo, asked: AskOptions, result: CompletionResult & { ended: boolean }): number {
  if (asked.values.json) {
    io.stdout.write(
      JSON.stringify({
        ok: true,
        service: asked.service,
        model: result.model,
        text: result.text,
        usage: usageJson(result),
        finishReason: result.finishReason,
        nativeFinishReason: result.nativeFinishReason,
        refusal: result.refusal,
      }) + '\n',
    );
  } else {
    if (!result.ended) io.stdout.write('\n');
    writeEnding(io, result);
  }
  return result.refusal !== null || result.finishReason === 'content_filter' ? EXIT.declined : EXIT.ok;
}

function failed(io: CliIo, asked: AskOptions, stream: TextStream, error: unknown): number {
  const key = asked.connection.key;
  const failure = toServiceError(error, asked.service, { secrets: key ? [key] : [] });
  // What the service reported before the answer failed was charged: say so.
  const reported = stream.reported;
  if (asked.values.json) io.stdout.write(errorJson(failure, reported ? { usage: usageJson(reported) } : {}) + '\n');
  else {
    if (stream.text && !stream.text.endsWith('\n')) io.stdout.write('\n');
    writeError(io, failure);
    if (reported?.usage)
      io.stderr.write(
        `  usage reported: ${reported.usage.inputTokens} input + ${reported.usage.outputTokens} output tokens${reported.costUsd !== null ? `, $${reported.costUsd.toFixed(6)}` : ''}\n`,
      );
  }
  return failure.kind === 'cancelled' ? EXIT.interrupted : EXIT.failure;
}

const keyCount = (hits: readonly GuardHit[]) => (hits.length === 1 ? 'a key' : `${hits.length} keys`);

/** Where the keys are, never what they are: the source, line and column (1-based), and the masked key. */
function placeOf(from: string, hits: readonly GuardHit[]): string {
  return hits.map((h) => `${from} line ${h.line + 1}, column ${h.column + 1}: ${h.description} ${h.masked}`).join('; ');
}

/** A prompt holding a key is not sent: say where the key is, what to do, and exit 4. */
function refuseKeys(io: CliIo, json: boolean, from: string, hits: readonly GuardHit[]): number {
  const message = `the prompt holds ${keyCount(hits)} (${placeOf(from, hits)}); nothing was sent`;
  const action = 'Remove the key from the prompt, or run again with --redact to send it with each key redacted.';
  if (json)
    io.stdout.write(
      JSON.stringify({
        ok: false,
        error: { kind: 'key_in_prompt', status: null, code: 'key_in_prompt', message, action, retryAfterSeconds: null },
        keys: hits.map((h) => ({ in: from, line: h.line + 1, column: h.column + 1, masked: h.masked })),
      }) + '\n',
    );
  else io.stderr.write(`keyward ask: ${message}\n  what to do: ${action}\n`);
  return EXIT.keyInPrompt;
}

function usageJson(reported: ReportedUsage | CompletionResult) {
  return {
    inputTokens: reported.usage?.inputTokens ?? null,
    outputTokens: reported.usage?.outputTokens ?? null,
    totalTokens: reported.usage?.totalTokens ?? null,
    costUsd: reported.costUsd,
  };
}

/** A refusal is the answer (stdout), marked as one (stderr); a filtered or cut-off answer says so. */
function writeEnding(io: CliIo, result: CompletionResult): void {
  if (result.refusal !== null) {
    io.stdout.write(result.refusal.endsWith('\n') ? result.refusal : `${result.refusal}\n`);
    io.stderr.write('keyward: the model declined to answer (a refusal); its explanation is above.\n');
  }
  if (result.finishReason === 'content_filter') {
    io.stderr.write(
      result.text
        ? "keyward: the provider's content filter stopped the answer; what arrived is above.\n"
        : "keyward: the provider's content filter withheld the answer: no text arrived.\n",
    );
  } else if (result.finishReason === 'length') {
    io.stderr.write('keyward: the answer was cut off at the token limit.\n');
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      service: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-stream': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      'idle-timeout': { type: 'string' },
      redact: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
