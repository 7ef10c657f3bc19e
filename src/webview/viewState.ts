// The panel's state and its reducer: pure, so it is tested without a DOM.
import { type KeyMask, mapStrings, maskKeyShapes, maskKnownKeys } from '../shared/keyShapes.ts';
import type { Attachment, ModelOption, PanelState } from '../shared/protocol.ts';
import { DEFAULT_SERVICE, defaultModel, isServiceId, perService } from '../shared/serviceIds.ts';
import { isComposerAction, reduceComposer } from './composerReducer.ts';
import { MAX_RECENT } from './modelPicker.ts';
import { MAX_DRAFTS, reducePanel } from './panelReducer.ts';
import { isStreamAction, reduceStream } from './streamReducer.ts';

export { MAX_DRAFTS } from './panelReducer.ts';

export type { Action, Editing, LocalAction, Pending, Queued, ViewState } from './viewTypes.ts';
import type { Action, ViewState } from './viewTypes.ts';

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

/**
 * The reducer, by message family: an answer's life (streamReducer.ts), the composer (composerReducer.ts), the
 * panel around them (panelReducer.ts).
 */
export function reduce(state: ViewState, action: Action, now = Date.now()): ViewState {
  if (isStreamAction(action)) return reduceStream(state, action, now);
  if (isComposerAction(action)) return reduceComposer(state, action);
  return reducePanel(state, action);
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
      // A #problems, #changes or #terminal chip is a snapshot with no file to read it back from: not kept.
      attachments: state.attachments
        .filter((a) => a.context === undefined)
        .map((a) => ({
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
