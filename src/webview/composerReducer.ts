// The reducer's part for what happens in the composer: the draft, the code chips, a send beginning, the queue,
// an edit of a sent message, the spend cap's card dismissed.
import { joinTexts, mergeAttachments, unqueue } from './queuedPrompt.ts';
import type { Action, LocalAction, ViewState } from './viewTypes.ts';

const COMPOSER_TYPES = [
  'draft/set',
  'attachment/add',
  'attachment/remove',
  'send/begin',
  'queue/add',
  'queue/cancel',
  'queue/edit',
  'edit/begin',
  'edit/cancel',
  'spendCap/dismiss',
] as const;

export type ComposerAction = Extract<Action, { type: (typeof COMPOSER_TYPES)[number] }>;

export const isComposerAction = (action: Action): action is ComposerAction =>
  (COMPOSER_TYPES as readonly string[]).includes(action.type);

function queueAdd(state: ViewState, { queued }: Extract<LocalAction, { type: 'queue/add' }>): ViewState {
  // One queue entry: a second prompt written while the same answer streams joins the first.
  return {
    ...state,
    queued: state.queued
      ? {
          text: joinTexts(state.queued.text, queued.text),
          attachments: mergeAttachments(state.queued.attachments, queued.attachments),
          model: queued.model,
          ...(state.queued.replaceFrom ? { replaceFrom: state.queued.replaceFrom } : {}),
        }
      : queued,
    draft: '',
    attachments: [],
    editing: null,
  };
}

export function reduceComposer(state: ViewState, action: ComposerAction): ViewState {
  switch (action.type) {
    case 'draft/set':
      return { ...state, draft: action.text };
    case 'attachment/add':
      return {
        ...state,
        attachments: [...state.attachments.filter((a) => a.id !== action.attachment.id), action.attachment],
      };
    case 'attachment/remove':
      return { ...state, attachments: state.attachments.filter((a) => a.id !== action.id) };
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
      return queueAdd(state, action);
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
    case 'spendCap/dismiss':
      return { ...state, spendCap: null };
  }
}
