// A prompt from the chat, through the guarded-prompt pipeline (core/chat/guardedPrompt.ts): past the daily cap a
// card asks first, the secret guard asks with a modal, the answer streams into every webview showing its
// conversation, and its cost is added to the day's spend. ChatSession owns the state this reads and writes.
import type { ChatTurn, HostMessage } from '../../shared/protocol.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import { lastResponseId, promptTurns, splitAtAnswer, splitAtEdit } from '../../core/chat/conversation.ts';
import { guardKeys, recordOnly, runGuardedPrompt, unreadReason } from '../../core/chat/guardedPrompt.ts';
import { runPrompt } from '../../core/chat/promptRunner.ts';
import { sentImages, turnsWithImages } from '../../core/chat/imageTurns.ts';
import type { PromptImage } from '../../shared/promptImages.ts';
import { isFreeModelId } from '../../core/wire/freeModels.ts';
import type { CompletionResult, ReportedUsage } from '../../core/wire/textStream.ts';
import { toServiceError } from '../../core/errors.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { type Guarded, guardPrompt } from '../../core/guards/secretGuard.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { addVersion } from '../../shared/answerVersions.ts';
import { type ModelSettings, type SettingSupport, applicableSettings } from '../../shared/modelSettings.ts';
import type { Attachment } from '../../shared/protocol.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import type { ChatSessionPorts } from './chatSessionPorts.ts';
import { newId, resolveAttachments } from './panelAttachments.ts';
import { askToRedact } from './secretGuardPrompt.ts';
import { tickFirstPrompt } from './walkthrough.ts';
import type { WebviewConnection } from './webviewConnection.ts';

export interface Running {
  controller: AbortController;
  from: WebviewConnection | undefined;
  conversationId: string;
}

/** The last Edit-and-resend: the conversation as it was before, for its Undo. */
export interface LastEdit {
  conversationId: string;
  before: ChatTurn[];
}

/** What a send reads and writes of the session. */
export interface SendContext {
  monitor: AccountMonitor;
  keys: KeyStore;
  configuration: Configuration;
  log: Log;
  ports: ChatSessionPorts;
  post(message: HostMessage): void;
  running: Map<string, Running>;
  /** Requests whose conversation was put back by an Undo: what they end with is neither stored nor shown. */
  discarded: Set<string>;
  setLastEdit(edit: LastEdit | undefined): void;
  responseKey(service: ServiceId): Promise<string | undefined>;
  support(service: ServiceId, model: string): SettingSupport | undefined;
  /** Why these images cannot go to the model (it does not read images, one is too big), worded; undefined: they can. */
  imagesRefused(service: ServiceId, model: string, images: readonly PromptImage[]): string | undefined;
}

export interface SendRequest {
  requestId: string;
  service: ServiceId;
  model: string;
  prompt: string;
  attachments: Attachment[];
  from?: WebviewConnection | undefined;
  replaceFrom?: string | undefined;
  options: { overCap?: boolean; regenerate?: string; images?: PromptImage[] | undefined };
}

/** Where the answer goes in its conversation: the turns before it, after it, and how it is placed. */
interface Placement {
  conversationId: string;
  history: ChatTurn[];
  after: ChatTurn[];
  user: ChatTurn;
  assistant: ChatTurn;
  place: (answer: ChatTurn) => ChatTurn;
  postHere: (message: HostMessage) => void;
}

export async function sendPrompt(ctx: SendContext, request: SendRequest): Promise<void> {
  const { requestId, service, model, options } = request;
  const spend = ctx.ports.spend;
  let placement: Placement | undefined;
  let text = '';
  let reported: ReportedUsage | undefined;
  let settings: ModelSettings = {};
  let chains = false;
  let responseKey: string | undefined;
  const images = options.images ?? [];
  if (imagesHeldBack(ctx, request, images)) return;
  try {
    const outcome = await runGuardedPrompt<Guarded, CompletionResult>({
      // Past the daily cap a paid prompt waits for the person's word, asked on a card in the chat (nothing is sent
      // and the prompt stays in the box); "Send anyway" sends it again with overCap. Checked before the secret
      // guard, so a prompt held back here is not asked about twice.
      heldBack: () => {
        const capped = options.overCap ? undefined : spend?.check(service, model);
        if (capped) ctx.post({ type: 'chat/spendCap', requestId, ...capped });
        return capped !== undefined;
      },
      guard: () => guard(ctx, request),
      // What the answer cost counts toward the cap even when its conversation was discarded meanwhile.
      reserve: () => (spend ? recordOnly((costUsd) => spend.record(service, costUsd)) : undefined),
      prompt: async (guarded, onReported) => {
        placement = await place(ctx, request, guarded);
        chains = SERVICES[service].capabilities.chainsResponses;
        responseKey = chains ? await ctx.responseKey(service) : undefined;
        const previousResponseId = chains ? lastResponseId(placement.history, responseKey) : undefined;
        // The model's settings, only those its list says it takes: what is sent is what the answer's note names.
        settings = applicableSettings(ctx.ports.modelSettings?.get(service, model) ?? {}, ctx.support(service, model));
        const controller = new AbortController();
        ctx.running.set(requestId, { controller, from: request.from, conversationId: placement.conversationId });
        const postHere = placement.postHere;
        const turns = promptTurns(placement.history, guarded.prompt, guarded.attachments);
        return runPrompt(
          ctx.monitor,
          {
            service,
            model,
            turns, // with images, they ride on the last user turn in each service's wire form (core/lm/messages.ts)
            ...(images.length > 0 ? { messages: turnsWithImages(turns, images) } : {}),
            ...(previousResponseId ? { previousResponseId } : {}),
            denyDataCollection: ctx.configuration.value.router.denyDataCollection,
            settings,
          },
          {
            signal: controller.signal,
            onDelta: (delta) => {
              text += delta;
              postHere({ type: 'chat/chunk', requestId, text: delta });
            },
            onRetry: (notice) =>
              postHere({ type: 'chat/retrying', requestId, kind: notice.error.kind, delayMs: notice.delayMs }),
            onFreeWait: (delayMs) => postHere({ type: 'chat/retrying', requestId, kind: 'free_limit_minute', delayMs }),
            onReported: (usage) => {
              reported = usage;
              onReported(usage);
            },
          },
        );
      },
    });
    if (!outcome.sent) {
      // The prompt is still in the webview's box; it is not echoed back.
      if (outcome.why === 'guarded') ctx.post({ type: 'chat/blocked', requestId, prompt: '' });
      return;
    }
    if (!placement || ctx.discarded.has(requestId)) return;
    await answered(ctx, request, placement, outcome.result, { settings, chains, responseKey });
  } catch (thrown) {
    // Before the prompt had its place (storing it failed): the panel's handler logs it, as any handler error.
    if (!placement) throw thrown;
    if (ctx.discarded.has(requestId)) return;
    await failed(ctx, request, placement, thrown, { text, reported });
  } finally {
    ctx.running.delete(requestId);
    ctx.discarded.delete(requestId);
  }
}

/** Images the model does not take (or too big): the webview refused them already, its message is checked again. */
function imagesHeldBack(ctx: SendContext, request: SendRequest, images: readonly PromptImage[]): boolean {
  const refused = images.length > 0 ? ctx.imagesRefused(request.service, request.model, images) : undefined;
  if (refused === undefined) return false;
  ctx.post({ type: 'chat/blocked', requestId: request.requestId, prompt: '' });
  request.from?.post({ type: 'composer/note', text: refused });
  return true;
}

/** The secret guard: stored keys by value and every key by shape, in the prompt and what is attached. */
async function guard(ctx: SendContext, request: SendRequest): Promise<Guarded | undefined> {
  const keys = await guardKeys(ctx.keys);
  // Unread keys fail closed: the guard asks before anything is sent, and the log says why.
  const unread = unreadReason(keys);
  if (unread !== undefined)
    ctx.log.warn(`Secret guard: the stored keys could not be read (${unread}); asking before sending.`);
  return guardPrompt(
    request.prompt,
    await resolveAttachments(request.attachments, ctx.ports.store, ctx.log),
    keys,
    ctx.ports.ask ?? askToRedact,
    unread,
  );
}

/** The prompt's place in its conversation, shown as started and stored before the answer comes. */
async function place(ctx: SendContext, request: SendRequest, guarded: Guarded): Promise<Placement> {
  const { requestId, service, model, replaceFrom, options } = request;
  const { prompt, attachments } = guarded;
  const store = ctx.ports.store;
  // The answer belongs to the conversation it was asked in, even if the person switches meanwhile.
  const conversationId = store.conversationId();
  const all = store.turns(conversationId);
  // Edit-and-resend: the conversation continues from the edited message; what it replaces is kept for Undo.
  const split = replaceFrom === undefined ? undefined : splitAtEdit(all, replaceFrom);
  if (replaceFrom !== undefined && !split)
    ctx.log.warn('Edit and send again: the edited message is no longer in the conversation; sent as a new one.');
  // Regenerate: the answer is asked again from what came before its prompt, and the new one takes its place.
  const again = options.regenerate === undefined ? undefined : splitAtAnswer(all, options.regenerate);
  const history = again ? again.before : split ? split.kept : all;
  ctx.setLastEdit(split ? { conversationId, before: all } : undefined);
  const images = options.images?.length ? { images: sentImages(options.images) } : {};
  const user: ChatTurn = again
    ? { ...again.prompt, text: prompt, attachments }
    : { id: newId(), role: 'user', text: prompt, service, model, status: 'done', attachments, ...images };
  const assistant: ChatTurn = { id: newId(), role: 'assistant', text: '', service, model, status: 'streaming' };
  ctx.post({
    type: 'chat/started',
    requestId,
    user,
    assistant,
    ...(split && replaceFrom ? { replaced: { fromTurnId: replaceFrom, count: split.replaced.length } } : {}),
    ...(again ? { regenerates: again.answer.id } : {}),
  });
  // The prompt is stored as it goes: a conversation holding only it is not empty, so switching away mid-answer
  // cannot drop it (core/chat/conversations.ts keeps no empty conversation).
  if (!again) await store.saveTurns([...history, user], conversationId);
  return {
    conversationId,
    history,
    after: again?.after ?? [],
    user,
    assistant,
    place: (answer) => (again ? addVersion(again.answer, answer) : answer),
    // What belongs to a conversation no longer shown is stored, not drawn into the one shown now.
    postHere: (message) => {
      if (store.conversationId() === conversationId) ctx.post(message);
    },
  };
}

async function answered(
  ctx: SendContext,
  request: SendRequest,
  at: Placement,
  result: CompletionResult,
  sent: { settings: ModelSettings; chains: boolean; responseKey: string | undefined },
): Promise<void> {
  const { service, model } = request;
  const free =
    SERVICES[service].capabilities.hasFreeModels && (isFreeModelId(model) || result.costUsd === 0)
      ? ctx.monitor.freeGuard.status()
      : null;
  const done: ChatTurn = at.place({
    ...at.assistant,
    text: result.text,
    model: result.model || model,
    status: 'done',
    usage: result.usage,
    costUsd: result.costUsd,
    free: free ? { used: free.used, limit: free.limit } : null,
    responseId: sent.chains ? result.id : null,
    responseKey: sent.chains ? (sent.responseKey ?? null) : null,
    refusal: result.refusal,
    finishReason: result.finishReason,
    ...(Object.keys(sent.settings).length > 0 ? { settings: sent.settings } : {}),
  });
  await ctx.ports.store.saveTurns([...at.history, at.user, done, ...at.after], at.conversationId);
  // The walkthrough's "send a first prompt" step completes on this.
  tickFirstPrompt();
  at.postHere({ type: 'chat/done', requestId: request.requestId, turn: done });
}

async function failed(
  ctx: SendContext,
  request: SendRequest,
  at: Placement,
  thrown: unknown,
  so: { text: string; reported: ReportedUsage | undefined },
): Promise<void> {
  const { service, model, requestId } = request;
  const error = toServiceError(thrown, service);
  const status: ChatTurn['status'] =
    error.kind === 'cancelled' ? 'cancelled' : error.kind === 'stream_interrupted' ? 'interrupted' : 'error';
  const turn: ChatTurn = at.place({
    ...at.assistant,
    text: error.partialText ?? so.text,
    status,
    error: error.toData(),
    // What the service charged for a stopped or broken answer, when it said.
    ...(so.reported ? { usage: so.reported.usage, costUsd: so.reported.costUsd } : {}),
    // The reset is a moment, not "in N seconds from whenever the card is drawn".
    retryAt:
      error.retryAfterSeconds !== null ? new Date(Date.now() + error.retryAfterSeconds * 1000).toISOString() : null,
  });
  await ctx.ports.store.saveTurns([...at.history, at.user, turn, ...at.after], at.conversationId);
  at.postHere({ type: 'chat/error', requestId, turn, prompt: at.user.text });
  ctx.log.warn(`Prompt to the ${service} service (${model}) failed: ${error.kind}: ${error.message}`);
}
