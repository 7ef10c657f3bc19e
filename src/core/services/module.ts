// What a service does, as one object per service (services/<id>.ts), registered once in services/registry.ts.
// Everything that differs between services and is behaviour, not data, is a member here: the client for its wire
// family, how a prompt is sent, its model list, the one key check, how its account state follows checks and
// answers, what its status item and `keyward status` say. Code outside a module calls these; it never asks which
// service it holds.
import type { ServiceErrorData } from '../../shared/errorKinds.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import type { ModelSettings } from '../../shared/modelSettings.ts';
import type { LmMessage, LmTool, ToolChoice } from '../lm/messages.ts';
import type { StatusView } from '../account/accountStatus.ts';
import type { RateLimits } from '../wire/responsesClient.ts';
import type { ServiceError } from '../errors.ts';
import type { Tier } from '../fees.ts';
import type { FreeModelGuard, FreeStatus } from '../wire/freeGuard.ts';
import type { KeyMetadata } from '../keys/keyStore.ts';
import type { ProxyConfig } from '../proxyConfig.ts';
import type { RetryNotice, TextStream } from '../wire/textStream.ts';
import type { ServiceDescriptor } from './descriptor.ts';

/** Where and how a client connects: one key (possibly empty where the service needs none) and one base URL. */
export interface ClientOptions {
  baseUrl: string;
  key: string;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  requestTimeoutMs?: number;
  /** The proxy and certificate authorities (VS Code's http.* settings, or HTTPS_PROXY in the CLI). */
  proxy?: ProxyConfig;
  now?: () => number;
  /** The free-model guard the account monitor shares; services without free models ignore it. */
  freeGuard?: FreeModelGuard;
}

/** Whatever client a service's wire family needs; the module alone knows its type. */
export interface WireClient {
  close(): Promise<void>;
}

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptInput {
  model: string;
  /** The whole conversation, last turn the user's. */
  turns: Turn[];
  /** One prompt without a conversation (the CLI): sent as plain text where the wire format has a form for it. */
  text?: string;
  /** Continue from this stored response instead of resending the turns (services that chain responses). */
  previousResponseId?: string;
  instructions?: string;
  denyDataCollection?: boolean;
  /** A language-model request's messages (tool calls, tool results, images): sent instead of `turns`. */
  messages?: LmMessage[];
  tools?: LmTool[];
  toolChoice?: ToolChoice;
  /** The model's settings the person chose, already limited to those the model takes. */
  settings?: ModelSettings;
}

export interface PromptOptions {
  signal?: AbortSignal | undefined;
  stream?: boolean;
  onRetry?: (notice: RetryNotice) => void;
  onFreeWait?: (delayMs: number) => void;
}

/** What every service's account state has, whatever else it knows. */
export interface AccountSnapshot {
  lastError: ServiceErrorData | null;
  /** Epoch ms of the last refresh that worked. */
  refreshedAt: number | null;
  /** The last refresh failed (network, server): what is shown may be out of date. */
  stale: boolean;
}

/** What the account monitor lends a module: the clock, the settings' tier, the shared free-model guard. */
export interface AccountContext {
  now: () => number;
  /** Null when no tier was set: the status then says "not set" instead of stating a default as fact. */
  tier: () => Tier | null;
  freeGuard: FreeModelGuard;
}

/** A key check that failed: the service refused, or could not be asked. */
export interface FailedVerification {
  service: ServiceId;
  ok: false;
  error: ServiceError;
}

/** What a person is told after a key check that worked: English, with `{0}`-style arguments the host localises. */
export interface VerifiedNotice {
  severity: 'info' | 'warning';
  message: string;
  args: string[];
  /** A page worth opening from the message. */
  open?: { label: string; url: string };
}

/** What fixes the state the status item shows, offered first in its menu: English, localised by the host. */
export interface Remedy {
  /** A codicon name. */
  icon: string;
  label: string;
  args: string[];
  description: string;
  url: string;
}

/** `keyward status` for one key: the JSON contract's fields after `ok` and `service`, and the text form. */
export interface CliStatus {
  json: Record<string, unknown>;
  text: string;
}

/**
 * The key `keyward status` sent, as its module may show it: masked by the one masking every other place uses
 * (shared/keyShapes.ts maskKey), never as a service echoes it. Null when no key was sent.
 */
export type CliKey = { masked: string } | null;

export interface ServiceModule<
  Snapshot extends AccountSnapshot = AccountSnapshot,
  Client extends WireClient = WireClient,
  Verified extends { service: ServiceId; ok: true } = { service: ServiceId; ok: true },
> {
  readonly descriptor: ServiceDescriptor;
  /** A client for one key and base URL, speaking the service's wire family (its code loads on the first one made). */
  open(options: ClientOptions): Promise<Client>;
  /** One prompt in the service's wire format. */
  prompt(client: Client, input: PromptInput, options: PromptOptions): TextStream;
  /** The models the panel's picker offers. */
  modelOptions(client: Client, signal?: AbortSignal): Promise<ModelOption[]>;
  /** Rate limits the last answer carried, where the service sends them; undefined where it never does. */
  rateLimits(client: Client): RateLimits | null | undefined;
  /**
   * The one key check, spending nothing: it resolves when the service knows the key and throws the ServiceError
   * when it refuses. Used for a key not stored yet (core/services/keyCheck.ts), the stored key (the account monitor) and
   * `keyward status`.
   */
  checkKey(client: Client, signal?: AbortSignal): Promise<unknown>;
  /** `keyward status`: the key check and what the service tells about the account, for a person or a program. */
  cliStatus(client: Client, key: CliKey): Promise<CliStatus>;
  readonly account: {
    empty(context: AccountContext): Snapshot;
    /** The snapshot as the status bar reads it now (a setting may add to it). */
    current(snapshot: Snapshot, context: AccountContext): Snapshot;
    /** The key was replaced or deleted: what was known is forgotten. */
    reset(snapshot: Snapshot, context: AccountContext): Snapshot;
    verify(
      client: Client,
      snapshot: Snapshot,
      context: AccountContext,
      signal?: AbortSignal,
    ): Promise<{ snapshot: Snapshot; verification: Verified | FailedVerification }>;
    /** What a prompt's outcome tells about the account. */
    recordOutcome(
      snapshot: Snapshot,
      error: ServiceError | null,
      rateLimits: RateLimits | null | undefined,
      context: AccountContext,
    ): Snapshot;
    /** The status-bar item: text, tooltip, severity. */
    view(snapshot: Snapshot, meta: KeyMetadata | undefined, name: string, now: number): StatusView;
    /** The item counts down (a wait the service named): it is drawn again each second. */
    counting(snapshot: Snapshot): boolean;
    /** What fixes the state the item shows, if anything does (credits for a negative balance, a missing scope). */
    remedy(snapshot: Snapshot, pages: { keys: string | null; credits: string | null }): Remedy | undefined;
    /** The free-model guard saw a new count (services with free models). */
    freeChanged?(snapshot: Snapshot, free: FreeStatus | null): Snapshot;
    /** What to tell a person after a check that worked. */
    notice(
      verification: Verified,
      pages: { keys: string | null; credits: string | null },
      name: string,
    ): VerifiedNotice;
  };
}

/** The one rule for a model list that is not there: a server without GET /models answers 404 or 405. */
export function noModelList(error: ServiceError): boolean {
  return error.kind === 'bad_request' && (error.status === 404 || error.status === 405);
}

/** A model list the key may not read, or a server that offers none: the person types a model id instead. */
export function cannotListModels(error: ServiceError): boolean {
  return error.kind === 'permission' || noModelList(error);
}
