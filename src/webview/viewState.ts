// The panel's state and its reducer: pure, so it is tested without a DOM.
import { type KeyMask, mapStrings, maskKeyShapes, maskKnownKeys } from '../shared/keyShapes.ts';
import type { Attachment, ChatTurn, HostMessage, ModelOption, PanelState, SpendCapNotice } from '../shared/protocol.ts';
import { DEFAULT_SERVICE, defaultModel, isServiceId, perService } from '../shared/serviceIds.ts';
import { MAX_RECENT, withRecent } from './modelPicker.ts';

export interface Pending {
  requestId: string;
  assistantId: string;
  /** Epoch ms when the service's wait ends, while a retry is pending. */
  retryUntil: number | null;
  retryKind: string | null;
  /** Sent from the queue, not from the box: the box may hold something new, and a blocked send goes back there. */
  queued?: Queued;
}

/** A prompt written while an answer streams: it is sent when that answer ends well (issue 21 item 14). */
export interface Queued {
  text: string;
  attachments: Attachment[];
  model: string;
  /** Queued while a sent message was being edited: it replaces that message when it goes. */
  replaceFrom?: string;
}

/** A sent message being edited in the box: sending replaces it and every turn after it. */
export interface Editing {
  turnId: string;
  /** What the box held before, put back if the edit is cancelled. */
  draftBefore: string;
  attachmentsBefore: Attachment[];
}

export interface ViewState extends PanelState {
  draft: string;
  attachments: Attachment[];
  pending: Pending | null;
  modelFilter: string;
  /** Model ids most recently chosen per service, newest first: the picker lists them on top. */
  recentModels: Record<PanelState['service'], string[]>;
  /** The drafts of the conversations not shown, by conversation id: each conversation keeps its own. */
  drafts: Record<string, string>;
  queued: Queued | null;
  editing: Editing | null;
  /** The last Edit-and-resend replaced `count` turns before the user turn `userId`: an Undo is offered there. */
  replacedNotice: { userId: string; count: number } | null;
  /** The daily spend cap held the last send back: the card above the prompt box asks what to do. */
  spendCap: SpendCapNotice | null;
}

/** Drafts kept for conversations not shown: the newest few, so the saved state stays small. */
export const MAX_DRAFTS = 20;

/** The draft box when the host shows a conversation: the shown one's draft is put aside, the new one's taken up. */
function switchDrafts(state: ViewState, next: string | undefined): Pick<ViewState, 'draft' | 'drafts'> {
  const current = state.conversationId;
  if (next === undefined || current === undefined || next === current)
    return { draft: state.draft, drafts: state.drafts };
  const { [next]: taken = '', ...rest } = state.drafts;
  const kept = state.draft.trim() === '' ? rest : { ...rest, [current]: state.draft };
  return { draft: taken, drafts: Object.fromEntries(Object.entries(kept).slice(-MAX_DRAFTS)) };
}

export type LocalAction =
  | { type: 'draft/set'; text: string }
  | { type: 'attachment/remove'; id: string }
  | { type: 'send/begin'; requestId: string; queued?: Queued }
  | { type: 'queue/add'; queued: Queued }
  | { type: 'queue/cancel' }
  /** The queued prompt goes back into the box to be edited (and is no longer queued). */
  | { type: 'queue/edit' }
  | { type: 'edit/begin'; turn: ChatTurn }
  | { type: 'edit/cancel' }
  | { type: 'model/filter'; text: string }
  | { type: 'service/local'; service: PanelState['service'] }
  | { type: 'model/local'; model: string }
  | { type: 'spendCap/dismiss' };

export type Action = HostMessage | LocalAction;

export function initialState(): ViewState {
  return {
    service: DEFAULT_SERVICE,
    services: [],
    models: perService<ModelOption[] | null>(() => null),
    canListModels: perService(() => true),
    selectedModel: perService(defaultModel),
    hasKey: perService(() => false),
    turns: [],
    strings: {},
    draft: '',
    attachments: [],
    pending: null,
    modelFilter: '',
    recentModels: perService<string[]>(() => []),
    drafts: {},
    spendCap: null,
    queued: null,
    editing: null,
    replacedNotice: null,
  };
}

/** Two texts for one box: the older first, a blank line between. */
function joinTexts(first: string, second: string): string {
  return [first, second].filter((text) => text.trim() !== '').join('\n\n');
}

function mergeAttachments(first: Attachment[], second: Attachment[]): Attachment[] {
  return [...first, ...second.filter((a) => !first.some((b) => b.id === a.id))];
}

/** The queued prompt back in the box (not sent): before what the box holds, its code chips with it. */
function unqueue(state: ViewState): Pick<ViewState, 'draft' | 'attachments' | 'queued'> {
  if (!state.queued) return { draft: state.draft, attachments: state.attachments, queued: null };
  return {
    draft: joinTexts(state.queued.text, state.draft),
    attachments: mergeAttachments(state.queued.attachments, state.attachments),
    queued: null,
  };
}

function replaceTurn(turns: ChatTurn[], turn: ChatTurn): ChatTurn[] {
  const index = turns.findIndex((t) => t.id === turn.id);
  if (index < 0) return [...turns, turn];
  const next = turns.slice();
  next[index] = turn;
  return next;
}

export function reduce(state: ViewState, action: Action, now = Date.now()): ViewState {
  switch (action.type) {
    case 'panel/state': {
      // The host's conversation wins; what the person was typing (and queued) stays with the conversation it was
      // typed in; an edit in progress ends.
      const typed = { ...state, ...unqueue(state) };
      return {
        ...typed,
        ...action.state,
        ...switchDrafts(typed, action.state.conversationId),
        pending: null,
        editing: null,
        replacedNotice: null,
        spendCap: null,
      };
    }
    case 'models/list':
      return {
        ...state,
        models: { ...state.models, [action.service]: action.models },
        canListModels: { ...state.canListModels, [action.service]: action.canList },
      };
    case 'chat/started': {
      // An edited message sent again: the conversation continues from it, the turns it replaced leave the view
      // (the host keeps them for Undo).
      const cut = action.replaced ? state.turns.findIndex((t) => t.id === action.replaced!.fromTurnId) : -1;
      const kept = cut >= 0 ? state.turns.slice(0, cut) : state.turns;
      // A prompt sent from the queue was not in the box: what the box holds now is newer, and stays.
      const fromQueue = state.pending?.requestId === action.requestId && state.pending.queued !== undefined;
      // A regenerated answer came from no box either.
      const keepBox = fromQueue || action.regenerates !== undefined;
      // Regenerate: the new answer takes the old one's place; its prompt is already there.
      const regenerated = action.regenerates !== undefined && state.turns.some((t) => t.id === action.regenerates);
      return {
        ...state,
        turns: regenerated
          ? state.turns.map((t) => (t.id === action.regenerates ? action.assistant : t))
          : [...kept, action.user, action.assistant],
        draft: keepBox ? state.draft : '',
        attachments: keepBox ? state.attachments : [],
        editing: keepBox ? state.editing : null,
        replacedNotice: action.replaced ? { userId: action.user.id, count: action.replaced.count } : null,
        pending: {
          requestId: action.requestId,
          assistantId: action.assistant.id,
          retryUntil: null,
          retryKind: null,
          ...(fromQueue ? { queued: state.pending!.queued! } : {}),
        },
        spendCap: null,
      };
    }
    case 'chat/chunk': {
      if (state.pending?.requestId !== action.requestId) return state;
      const id = state.pending.assistantId;
      const turns = state.turns.map((t) => (t.id === id ? { ...t, text: t.text + action.text } : t));
      return { ...state, turns, pending: { ...state.pending, retryUntil: null, retryKind: null } };
    }
    case 'chat/turn':
      if (!state.turns.some((t) => t.id === action.turn.id)) return state;
      return { ...state, turns: replaceTurn(state.turns, action.turn) };
    case 'chat/retrying':
      if (state.pending?.requestId !== action.requestId) return state;
      return { ...state, pending: { ...state.pending, retryUntil: now + action.delayMs, retryKind: action.kind } };
    case 'chat/done':
      return {
        ...state,
        turns: replaceTurn(state.turns, action.turn),
        pending: state.pending?.requestId === action.requestId ? null : state.pending,
      };
    case 'chat/error': {
      // A failed send keeps the prompt in the box (unless the person already typed something new);
      // a stopped answer was the person's choice: it stays as an answer and the box stays as it is.
      // A prompt queued behind this answer is not sent: it goes back into the box (issue 21 item 14).
      const mine = state.pending?.requestId === action.requestId;
      const typed = mine ? { ...state, ...unqueue(state) } : state;
      const refill = action.turn.status !== 'cancelled' && typed.draft.trim() === '';
      const draft = refill ? action.prompt : typed.draft;
      return {
        ...typed,
        turns: replaceTurn(state.turns, action.turn),
        draft,
        pending: state.pending?.requestId === action.requestId ? null : state.pending,
      };
    }
    case 'chat/blocked': {
      const mine = state.pending?.requestId === action.requestId;
      // A queued prompt the guard stopped was never in the box: it goes there now, with anything queued after it.
      const sent = mine ? state.pending!.queued : undefined;
      const typed = mine ? { ...state, ...unqueue(state) } : state;
      if (sent)
        return {
          ...typed,
          draft: joinTexts(sent.text, typed.draft),
          attachments: mergeAttachments(sent.attachments, typed.attachments),
          pending: null,
        };
      return {
        ...typed,
        draft: typed.draft.trim() === '' ? action.prompt : typed.draft,
        pending: mine ? null : state.pending,
      };
    }
    case 'chat/spendCap': {
      // Nothing was sent and the card asks. The prompt is still in the box (the host echoes none back); a queued
      // prompt the cap held was never there: it goes there now, as when the secret guard stops one.
      const { type: _type, requestId, ...notice } = action;
      const mine = state.pending?.requestId === requestId;
      const sent = mine ? state.pending!.queued : undefined;
      const typed = mine ? { ...state, ...unqueue(state) } : state;
      return {
        ...typed,
        ...(sent
          ? {
              draft: joinTexts(sent.text, typed.draft),
              attachments: mergeAttachments(sent.attachments, typed.attachments),
            }
          : {}),
        spendCap: notice,
        pending: mine ? null : state.pending,
      };
    }
    case 'spendCap/dismiss':
      return { ...state, spendCap: null };
    case 'attachment/add':
      return {
        ...state,
        attachments: [...state.attachments.filter((a) => a.id !== action.attachment.id), action.attachment],
      };
    case 'attachment/remove':
      return { ...state, attachments: state.attachments.filter((a) => a.id !== action.id) };
    case 'keys/changed':
      return { ...state, hasKey: action.hasKey, ...(action.keyMasks ? { keyMasks: action.keyMasks } : {}) };
    case 'settings/changed':
      return { ...state, enterSends: action.enterSends };
    case 'services/changed':
      return { ...state, services: action.services, service: action.service };
    case 'history/cleared':
      return { ...state, turns: [], editing: null, replacedNotice: null };
    case 'draft/set':
      return { ...state, draft: action.text };
    case 'send/begin':
      return {
        ...state,
        pending: {
          requestId: action.requestId,
          assistantId: '',
          retryUntil: null,
          retryKind: null,
          ...(action.queued ? { queued: action.queued } : {}),
        },
        queued: action.queued ? null : state.queued,
      };
    case 'queue/add':
      // One queue entry: a second prompt written while the same answer streams joins the first.
      return {
        ...state,
        queued: state.queued
          ? {
              text: joinTexts(state.queued.text, action.queued.text),
              attachments: mergeAttachments(state.queued.attachments, action.queued.attachments),
              model: action.queued.model,
              ...(state.queued.replaceFrom ? { replaceFrom: state.queued.replaceFrom } : {}),
            }
          : action.queued,
        draft: '',
        attachments: [],
        editing: null,
      };
    case 'queue/cancel':
      return { ...state, queued: null };
    case 'queue/edit':
      return { ...state, ...unqueue(state) };
    case 'edit/begin':
      return {
        ...state,
        editing: {
          turnId: action.turn.id,
          draftBefore: state.editing ? state.editing.draftBefore : state.draft,
          attachmentsBefore: state.editing ? state.editing.attachmentsBefore : state.attachments,
        },
        draft: action.turn.text,
        attachments: action.turn.attachments ?? [],
      };
    case 'edit/cancel':
      if (!state.editing) return state;
      return {
        ...state,
        draft: state.editing.draftBefore,
        attachments: state.editing.attachmentsBefore,
        editing: null,
      };
    case 'model/filter':
      return { ...state, modelFilter: action.text };
    case 'service/local':
      return { ...state, service: action.service, modelFilter: '' };
    case 'model/local':
      return {
        ...state,
        selectedModel: { ...state.selectedModel, [state.service]: action.model },
        recentModels: {
          ...state.recentModels,
          [state.service]: withRecent(state.recentModels[state.service], action.model),
        },
      };
    default:
      return state;
  }
}

/** What the panel keeps across reloads through `setState`, which VS Code writes to disk. */
export interface PersistedView {
  draft: string;
  /** References only (file, lines): the host reads the text again when the chip is sent. */
  attachments: Attachment[];
  service: PanelState['service'];
  selectedModel: PanelState['selectedModel'];
  modelFilter: string;
  recentModels: ViewState['recentModels'];
  conversationId?: string;
  drafts: Record<string, string>;
}

/**
 * The one filter for the webview's saved state: attachments lose their text,
 * every key Keyward holds is masked by its mask (any shape: the host sends masks, never keys),
 * and anything key-shaped left in a string is masked.
 */
export function persistedView(
  state: Pick<ViewState, Exclude<keyof PersistedView, 'conversationId'>> & {
    conversationId?: string;
    keyMasks?: readonly KeyMask[];
  },
): PersistedView {
  const masks = state.keyMasks ?? [];
  return mapStrings(
    {
      draft: state.draft,
      attachments: state.attachments.map((a) => ({
        id: a.id,
        fileName: a.fileName,
        languageId: a.languageId,
        startLine: a.startLine,
        endLine: a.endLine,
        text: '',
      })),
      service: state.service,
      selectedModel: state.selectedModel,
      modelFilter: state.modelFilter,
      recentModels: Object.fromEntries(
        Object.entries(state.recentModels).map(([service, ids]) => [service, [...ids]]),
      ) as ViewState['recentModels'],
      ...(state.conversationId === undefined ? {} : { conversationId: state.conversationId }),
      drafts: { ...state.drafts },
    },
    (text) => maskKeyShapes(maskKnownKeys(text, masks)),
  );
}

/** Reads saved state back, whatever an older version wrote there, through the same filter. */
export function restoredView(saved: unknown): Partial<PersistedView> {
  if (!saved || typeof saved !== 'object') return {};
  const raw = saved as Partial<Record<keyof PersistedView, unknown>>;
  const base = initialState();
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const attachments = Array.isArray(raw.attachments)
    ? raw.attachments.filter(
        (a): a is Attachment =>
          !!a &&
          typeof a === 'object' &&
          typeof (a as Attachment).id === 'string' &&
          typeof (a as Attachment).fileName === 'string',
      )
    : [];
  const service = isServiceId(raw.service) ? raw.service : DEFAULT_SERVICE;
  const recent =
    raw.recentModels && typeof raw.recentModels === 'object' ? (raw.recentModels as Record<string, unknown>) : {};
  const ids = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string' && v !== '').slice(0, MAX_RECENT)
      : [];
  const models =
    raw.selectedModel && typeof raw.selectedModel === 'object' ? (raw.selectedModel as Record<string, unknown>) : {};
  return persistedView({
    draft: text(raw.draft),
    attachments: attachments.map((a) => ({
      ...a,
      languageId: text(a.languageId),
      startLine: Number(a.startLine) || 1,
      endLine: Number(a.endLine) || 1,
    })),
    service,
    selectedModel: perService((id) => text(models[id]) || base.selectedModel[id]),
    modelFilter: text(raw.modelFilter),
    recentModels: perService((id) => ids(recent[id])),
    ...(typeof raw.conversationId === 'string' ? { conversationId: raw.conversationId } : {}),
    drafts:
      raw.drafts && typeof raw.drafts === 'object'
        ? Object.fromEntries(
            Object.entries(raw.drafts as Record<string, unknown>)
              .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
              .slice(-MAX_DRAFTS),
          )
        : {},
  });
}
