// The chat's one state object: the reducer of viewState.ts behind a dispatch that saves the scrubbed view
// and tells the views what changed. The views read `store.state` and never keep a copy of it.
import type { UiKey } from '../shared/uiStrings.ts';
import { type Action, type ViewState, initialState, persistedView, reduce, restoredView } from './viewState.ts';

/** The part of VS Code's webview API the store uses: the saved state, written to disk by VS Code. */
export interface SavedState {
  getState(): unknown;
  setState(state: unknown): void;
}

export type Listener = (before: ViewState, action: Action) => void;

export class ChatStore {
  private current: ViewState;
  private readonly listeners: Listener[] = [];
  private readonly saved: SavedState;

  constructor(saved: SavedState) {
    this.saved = saved;
    this.current = { ...initialState(), ...restoredView(saved.getState()), turns: [], pending: null };
    // What an older version saved (attachment text, a key in the draft) is replaced at once.
    saved.setState(persistedView(this.current));
  }

  get state(): ViewState {
    return this.current;
  }

  /** A UI string by its name, in the host's language, or the English fallback before the host sent any. */
  readonly s = (key: UiKey, fallback: string): string => this.current.strings[key] ?? fallback;

  dispatch(action: Action): void {
    const before = this.current;
    this.current = reduce(before, action);
    // VS Code writes webview state to disk: it gets references and masked text only.
    this.saved.setState(persistedView(this.current));
    for (const listener of this.listeners) listener(before, action);
  }

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }
}
