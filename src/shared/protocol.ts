// The one protocol between the prompt panel's host side and its webview: two
// discriminated unions, `area/verb` types, and a runtime guard for everything
// that comes from the webview. A stream is chat/send -> chat/chunk* -> exactly
// one chat/done or chat/error, keyed by request id.
import type { FinishReason } from './answerEnd.ts';
import type { ServiceErrorData } from './errorKinds.ts';
import type { KeyMask } from './keyShapes.ts';
import type { ServiceId } from './serviceIds.ts';
import { isServiceId } from './serviceIds.ts';
import { type ContextRefName, isContextRefName } from './contextRefs.ts';
import { IMAGE_MAX_COUNT, type PromptImage, type SentImage, isPromptImage } from './promptImages.ts';
import type { ModelSettings, SettingSupport } from './modelSettings.ts';

export interface ModelOption {
  id: string;
  name: string;
  free: boolean;
  /** Dollars per million tokens; null when the service does not say or the price varies. */
  inputPerMillion: number | null;
  outputPerMillion: number | null;
  /** Tokens the model takes in one request; absent or null when the service does not say. */
  contextLength?: number | null;
  /** Tokens the model writes at most; absent or null when the service does not say. */
  maxOutputTokens?: number | null;
  /** The model calls tools; absent when the service does not say. */
  toolCalling?: boolean;
  /** The model reads images. */
  imageInput?: boolean;
  /** The per-model settings it takes (core/services' model lists say which); absent: none known. */
  settings?: SettingSupport;
}

export interface Attachment {
  id: string;
  fileName: string;
  languageId: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
  /** A `#` reference's piece (shared/contextRefs.ts): what the chip shows and the line above it in the sent text. Absent: code from a file. */
  context?: ContextRefName;
}

export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ChatTurn {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  service: ServiceId;
  model: string;
  status: 'done' | 'streaming' | 'interrupted' | 'error' | 'cancelled';
  attachments?: Attachment[];
  /** The images sent with this prompt, by name (the pictures are not kept). */
  images?: SentImage[];
  /** Also on a stopped or broken answer, when the service reported what it charged. */
  usage?: TurnUsage | null;
  costUsd?: number | null;
  /** The model declined: its explanation, which the panel shows as the answer, marked as a refusal. */
  refusal?: string | null;
  /** Why the answer ended, in the shared words (a cut-off or filtered answer says so under it). */
  finishReason?: FinishReason | null;
  /** When a limit the error reported lifts (ISO), fixed once when the error arrived so a redraw cannot move it. */
  retryAt?: string | null;
  /** Free-model count after this request, for free models. */
  free?: { used: number; limit: number | null } | null;
  error?: ServiceErrorData;
  /** Direct service: the stored response to continue from. */
  responseId?: string | null;
  /** The per-model settings sent with this answer (only those the model takes); absent when none were set. */
  settings?: ModelSettings;
  /** Direct service: which key and base URL stored that response (a fingerprint); no other key can continue it. */
  responseKey?: string | null;
  /** An answer regenerated: its other versions, in order (shared/answerVersions.ts); absent when it has one. */
  versions?: ChatTurn[];
  /** Where this version stands among all of them (0-based); absent: the last. */
  versionIndex?: number;
}

/** What the chat's spend-cap card says: today's spend and the cap (formatted), and a free model to offer. */
export interface SpendCapNotice {
  spent: string;
  cap: string;
  /** A free model on a service with a key; absent when there is none to offer. */
  free?: { service: ServiceId; model: string };
}

/** A service the panel offers, as the host describes it (core/services/descriptors.ts); the webview renders the switch from these. */
export interface ServiceChoice {
  id: ServiceId;
  /** Localised, or the name the person gave the service. */
  name: string;
  /** What the narrow switch shows ("Routing"); the full name is its tooltip. Absent: the name. */
  shortName?: string;
  /** Its model list carries prices; without them no "variable price" is shown. */
  pricedModels: boolean;
  /** Credits to add (an "Add credits" button), rather than a billing page. */
  hasCredits: boolean;
  /** Works without a key (a local server); a key is stored only when the person gives one. */
  keyOptional?: boolean;
  /** A model that costs nothing there (the routing service's free router), for the first screen's "Try a free model". */
  freeModel?: string;
  /** The service gives a key by signing in in the browser: the first screen offers "Sign in" beside "Set key". */
  signIn?: boolean;
}

export interface PanelState {
  service: ServiceId;
  /** The services to switch between, in order; only those that are set up. */
  services: ServiceChoice[];
  models: Record<ServiceId, ModelOption[] | null>;
  /** False when the key may not list models (a Restricted key): the user types an id. */
  canListModels: Record<ServiceId, boolean>;
  selectedModel: Record<ServiceId, string>;
  hasKey: Record<ServiceId, boolean>;
  /** The keys Keyward holds and held, as masks (never the keys): the webview masks them in the state it saves. */
  keyMasks?: KeyMask[];
  turns: ChatTurn[];
  /** The conversation shown: the prompt box's draft belongs to it (switching conversations swaps drafts). */
  conversationId?: string;
  strings: Record<string, string>;
  /** `keyward.chat.enterSends`: Enter sends and Shift+Enter breaks the line (true), or the other way round. */
  enterSends?: boolean;
}

/** Host -> webview. */
export type HostMessage =
  /** Everything the panel shows, on ready and after a reload. */
  | { type: 'panel/state'; state: PanelState }
  /** A model list arrived (or could not be read). */
  | {
      type: 'models/list';
      service: ServiceId;
      models: ModelOption[] | null;
      canList: boolean;
      error?: ServiceErrorData;
    }
  /**
   * The user turn was accepted (after the secret guard) and the answer starts. `replaced`: it is an edited
   * message sent again, and these turns (the one edited and all after it) left the conversation; the host keeps
   * them for an Undo (`history/undoEdit`).
   */
  | {
      type: 'chat/started';
      requestId: string;
      user: ChatTurn;
      assistant: ChatTurn;
      replaced?: { fromTurnId: string; count: number };
      /** Regenerate: the answer this one takes the place of (the prompt before it is `user`, already shown). */
      regenerates?: string;
    }
  /** A piece of the answer. */
  | { type: 'chat/chunk'; requestId: string; text: string }
  /** The service asked to wait; the request is retried after delayMs unless stopped. */
  | { type: 'chat/retrying'; requestId: string; kind: string; delayMs: number }
  | { type: 'chat/done'; requestId: string; turn: ChatTurn }
  | { type: 'chat/error'; requestId: string; turn: ChatTurn; prompt: string }
  /** The secret guard stopped the send: the prompt stays in the box. */
  | { type: 'chat/blocked'; requestId: string; prompt: string }
  /**
   * The daily spend cap held the send back: nothing was sent, the prompt stays in the box, and the chat shows a card
   * (Send anyway / Use a free model / Change cap).
   */
  | ({ type: 'chat/spendCap'; requestId: string } & SpendCapNotice)
  | { type: 'attachment/add'; attachment: Attachment }
  /**
   * A note under the prompt box, said also to assistive technology: a `#` reference that could not be attached, an
   * image the model does not take (`text` says why, with the limit when something is too big). Nothing was sent.
   */
  | { type: 'composer/note'; text: string }
  | { type: 'keys/changed'; hasKey: Record<ServiceId, boolean>; keyMasks?: KeyMask[] }
  /** The services on offer changed (the compatible one was set up or removed); `service` is the one to show. */
  | { type: 'services/changed'; services: ServiceChoice[]; service: ServiceId }
  | { type: 'history/cleared' }
  /** Clear set the conversation titled so aside: the chat offers Undo in the view until it shows another one. */
  | { type: 'history/undoable'; title: string }
  /** Put the cursor in the prompt box (the chat was opened or revealed). */
  | { type: 'prompt/focus' }
  /** Where an Apply stands: written and waiting for Keep or Undo, kept, undone, or refused (`text` says why). */
  | { type: 'code/applyState'; applyId: string; state: ApplyState; file: string; text?: string }
  /** A chat setting changed while the chat is open. */
  | { type: 'settings/changed'; enterSends: boolean }
  /** An answer changed outside a stream: another of its versions is shown. */
  | { type: 'chat/turn'; turn: ChatTurn };

/** An Apply's life: `pending` is written into the editor and waits for Keep or Undo (Copilot's Apply in Editor). */
export type ApplyState = 'pending' | 'kept' | 'undone' | 'refused' | 'stale';

/** Where code from an answer goes in the editor. */
export type InsertMode = 'cursor' | 'replace' | 'below';

/** Webview -> host. */
export type WebviewMessage =
  | { type: 'webview/ready' }
  | {
      type: 'chat/send';
      requestId: string;
      service: ServiceId;
      model: string;
      prompt: string;
      attachments: Attachment[];
      /** Edit-and-resend: the user turn this prompt replaces, with every turn after it. */
      replaceFrom?: string;
      /** The person chose "Send anyway" on the spend cap's card: this prompt goes past the cap. */
      overCap?: true;
      /** Pasted or dropped into the prompt box, for a model whose list says it reads images. */
      images?: PromptImage[];
    }
  | { type: 'chat/stop'; requestId: string }
  | { type: 'models/refresh'; service: ServiceId }
  /** The settings button: the host asks for the model's temperature, max output tokens or reasoning effort. */
  | { type: 'models/editSettings'; service: ServiceId; model: string }
  | { type: 'service/select'; service: ServiceId }
  | { type: 'model/select'; service: ServiceId; model: string }
  | { type: 'link/open'; url: string }
  | { type: 'code/insert'; code: string; mode: InsertMode }
  | { type: 'code/copy'; code: string }
  /**
   * Apply the block to the file it is for (the file it names, the file attached to the prompt, or the one the
   * person picks), merged into the region it rewrites; `applyId` names it for Keep and Undo, `turnId` is the
   * answer it came from (its prompt's attachments name the file).
   */
  | { type: 'code/apply'; code: string; languageId: string; applyId?: string; turnId?: string }
  /** Keep or Undo an Apply still pending. */
  | { type: 'code/applyResolve'; applyId: string; keep: boolean }
  /** Undo the last Edit-and-resend: the replaced turns come back in place of the new exchange. */
  | { type: 'history/undoEdit' }
  /** The `+` menu: attach the selection, the whole active file, or another open file (the host asks which). */
  | { type: 'attach/request'; source: AttachSource }
  | { type: 'history/clear' }
  /** The in-view Undo of the last Clear: the conversation set aside is shown again. */
  | { type: 'history/undoClear' }
  | { type: 'history/export' }
  /** Escape with nothing left to do in the chat: the keyboard focus goes back to the editor. */
  | { type: 'focus/editor' }
  | { type: 'action/run'; action: PanelAction; service: ServiceId }
  /**
   * Regenerate (or Retry) the answer `turnId`: its prompt is sent again with the turns before it, to `model`, and
   * the new answer takes its place; the old one stays as another version.
   */
  | { type: 'chat/regenerate'; requestId: string; turnId: string; service: ServiceId; model: string; overCap?: true }
  /** Show another version of the answer `turnId` (0-based `index`). */
  | { type: 'chat/showVersion'; turnId: string; index: number }
  /** The chat's frame took or lost the keyboard focus: the host keeps a context key for its keybindings. */
  | { type: 'focus/changed'; focused: boolean }
  /** Alt+F2 pressed in the chat: the host shows the last answer in its accessible view. */
  | { type: 'answer/showLast' }
  /** A `#` reference chosen in the prompt box's completion: the host reads it and sends it back as a chip. */
  | { type: 'context/attach'; name: ContextRefName };

export const ATTACH_SOURCES = ['selection', 'activeFile', 'openFile'] as const;
export type AttachSource = (typeof ATTACH_SOURCES)[number];

export type WebviewMessageType = WebviewMessage['type'];

/** A handler for every message type, so the compiler catches a missing case. */
export type WebviewHandlers = { [K in WebviewMessageType]: (message: Extract<WebviewMessage, { type: K }>) => unknown };
export type HostHandlers = { [K in HostMessage['type']]: (message: Extract<HostMessage, { type: K }>) => unknown };

const MAX_TEXT = 1_000_000;
const isString = (value: unknown, max = MAX_TEXT): value is string => typeof value === 'string' && value.length <= max;
const isService = isServiceId;
const isId = (value: unknown): value is string => typeof value === 'string' && /^[\w-]{1,64}$/.test(value);
const isModel = (value: unknown): value is string => typeof value === 'string' && /^[\w./:@+-]{1,200}$/.test(value);
const oneOf =
  <T extends string>(...values: readonly T[]) =>
  (value: unknown): value is T =>
    values.includes(value as T);

/** What an error card's (or the empty state's) buttons may ask the host to do. */
export const PANEL_ACTIONS = [
  'setKey',
  'verifyKey',
  'openCredits',
  'openKeys',
  'importKeys',
  'changeSpendCap',
  /** Sign in in the browser, for a service whose row names that command (the routing service). */
  'signIn',
] as const;
export type PanelAction = (typeof PANEL_ACTIONS)[number];
const isAction = oneOf(...PANEL_ACTIONS);
const isInsertMode = oneOf<InsertMode>('cursor', 'replace', 'below');

function isAttachment(value: unknown): value is Attachment {
  if (!value || typeof value !== 'object') return false;
  const a = value as Record<string, unknown>;
  return (
    isId(a.id) &&
    isString(a.fileName, 1000) &&
    isString(a.languageId, 100) &&
    Number.isInteger(a.startLine) &&
    Number.isInteger(a.endLine) &&
    isString(a.text) &&
    (a.context === undefined || isContextRefName(a.context))
  );
}

type Fields = Record<string, unknown>;

/**
 * The runtime check of each message from the webview, one row per type: a new
 * message type does not compile until it has its row.
 */
const WEBVIEW_MESSAGE_CHECKS = {
  'webview/ready': () => true,
  'chat/send': (m: Fields) =>
    isId(m.requestId) &&
    isService(m.service) &&
    isModel(m.model) &&
    isString(m.prompt) &&
    m.prompt.trim().length > 0 &&
    Array.isArray(m.attachments) &&
    m.attachments.length <= 20 &&
    m.attachments.every(isAttachment) &&
    (m.replaceFrom === undefined || isId(m.replaceFrom)) &&
    (m.overCap === undefined || m.overCap === true) &&
    (m.images === undefined ||
      (Array.isArray(m.images) && m.images.length <= IMAGE_MAX_COUNT && m.images.every(isPromptImage))),
  'chat/stop': (m: Fields) => isId(m.requestId),
  'models/refresh': (m: Fields) => isService(m.service),
  'models/editSettings': (m: Fields) => isService(m.service) && isModel(m.model),
  'service/select': (m: Fields) => isService(m.service),
  'model/select': (m: Fields) => isService(m.service) && isModel(m.model),
  'link/open': (m: Fields) => isString(m.url, 4000),
  'code/insert': (m: Fields) => isString(m.code) && isInsertMode(m.mode),
  'code/copy': (m: Fields) => isString(m.code),
  'code/apply': (m: Fields) =>
    isString(m.code) &&
    isString(m.languageId, 100) &&
    (m.applyId === undefined || isId(m.applyId)) &&
    (m.turnId === undefined || isId(m.turnId)),
  'code/applyResolve': (m: Fields) => isId(m.applyId) && typeof m.keep === 'boolean',
  'history/undoEdit': () => true,
  'attach/request': (m: Fields) => (ATTACH_SOURCES as readonly unknown[]).includes(m.source),
  'history/clear': () => true,
  'history/undoClear': () => true,
  'history/export': () => true,
  'answer/showLast': () => true,
  'focus/editor': () => true,
  'action/run': (m: Fields) => isService(m.service) && isAction(m.action),
  'chat/regenerate': (m: Fields) =>
    isId(m.requestId) &&
    isId(m.turnId) &&
    isService(m.service) &&
    isModel(m.model) &&
    (m.overCap === undefined || m.overCap === true),
  'chat/showVersion': (m: Fields) =>
    isId(m.turnId) && Number.isInteger(m.index) && (m.index as number) >= 0 && (m.index as number) < 100,
  'focus/changed': (m: Fields) => typeof m.focused === 'boolean',
  'context/attach': (m: Fields) => isContextRefName(m.name),
} satisfies Record<WebviewMessageType, (message: Fields) => boolean>;

/** Validates a message from the webview; anything else is dropped. */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const m = value as Fields;
  if (typeof m.type !== 'string' || !Object.hasOwn(WEBVIEW_MESSAGE_CHECKS, m.type)) return false;
  return WEBVIEW_MESSAGE_CHECKS[m.type as WebviewMessageType](m);
}

/** The paid twin of a free model: the same id without ":free". */
export function paidTwin(model: string): string | undefined {
  return model.endsWith(':free') ? model.slice(0, -':free'.length) : undefined;
}
