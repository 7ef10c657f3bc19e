// The reducer's part for the panel around the conversation: the host's state and lists (conversation, models,
// keys, services, settings, a cleared history) and the person's choice of service, model and filter.
import { withRecent } from './modelPicker.ts';
import { unqueue } from './queuedPrompt.ts';
import type { ComposerAction } from './composerReducer.ts';
import type { StreamAction } from './streamReducer.ts';
import type { Action, ViewState } from './viewTypes.ts';

export type PanelAction = Exclude<Action, StreamAction | ComposerAction>;

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

function panelState(state: ViewState, next: Extract<Action, { type: 'panel/state' }>['state']): ViewState {
  // The host's conversation wins; what the person was typing (and queued) stays with the conversation it was
  // typed in; an edit in progress ends.
  const typed = { ...state, ...unqueue(state) };
  return {
    ...typed,
    ...next,
    ...switchDrafts(typed, next.conversationId),
    pending: null,
    editing: null,
    replacedNotice: null,
    spendCap: null,
  };
}

export function reducePanel(state: ViewState, action: PanelAction): ViewState {
  switch (action.type) {
    case 'panel/state':
      return panelState(state, action.state);
    case 'models/list':
      return {
        ...state,
        models: { ...state.models, [action.service]: action.models },
        canListModels: { ...state.canListModels, [action.service]: action.canList },
      };
    case 'keys/changed':
      return { ...state, hasKey: action.hasKey, ...(action.keyMasks ? { keyMasks: action.keyMasks } : {}) };
    case 'settings/changed':
      return { ...state, enterSends: action.enterSends };
    case 'services/changed':
      return { ...state, services: action.services, service: action.service };
    case 'history/cleared':
      return { ...state, turns: [], editing: null, replacedNotice: null };
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
