// The reducer's part for the `chat/*` messages of an answer's life: started, chunks, retries, and how it ends
// (done, error, blocked by the secret guard, held by the spend cap).
import type { ChatTurn } from '../shared/protocol.ts';
import { joinTexts, mergeAttachments, unqueue } from './queuedPrompt.ts';
import type { Action, ViewState } from './viewTypes.ts';

export type StreamAction = Extract<Action, { type: `chat/${string}` }>;

export const isStreamAction = (action: Action): action is StreamAction => action.type.startsWith('chat/');

type Of<T extends StreamAction['type']> = Extract<StreamAction, { type: T }>;

function replaceTurn(turns: ChatTurn[], turn: ChatTurn): ChatTurn[] {
  const index = turns.findIndex((t) => t.id === turn.id);
  if (index < 0) return [...turns, turn];
  const next = turns.slice();
  next[index] = turn;
  return next;
}

function started(state: ViewState, action: Of<'chat/started'>): ViewState {
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

function failed(state: ViewState, action: Of<'chat/error'>): ViewState {
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

function blocked(state: ViewState, action: Of<'chat/blocked'>): ViewState {
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

function heldByCap(state: ViewState, action: Of<'chat/spendCap'>): ViewState {
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

export function reduceStream(state: ViewState, action: StreamAction, now: number): ViewState {
  switch (action.type) {
    case 'chat/started':
      return started(state, action);
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
    case 'chat/error':
      return failed(state, action);
    case 'chat/blocked':
      return blocked(state, action);
    case 'chat/spendCap':
      return heldByCap(state, action);
    default:
      return state;
  }
}
