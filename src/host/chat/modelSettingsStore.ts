// Per-model settings (temperature, max output tokens, reasoning effort) kept in global state, one record per
// service and model: the chat and VS Code's language-model requests read the same record. Only numbers and words
// are kept, and the state passes the one filter for disk (host/scrubbedState.ts) like everything else.
import { type ModelSettings, cleanSettings, settingsKey } from '../../shared/modelSettings.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { Disposable } from '../../shared/dispose.ts';
import { Emitter } from '../../shared/event.ts';

const STATE_KEY = 'keyward.modelSettings';

/** The part of a Memento this store uses. */
export interface SettingsMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export class ModelSettingsStore extends Disposable {
  private readonly changed = this._register(new Emitter<{ service: ServiceId; model: string }>());
  readonly onDidChange = this.changed.event;
  private readonly state: SettingsMemento;

  constructor(state: SettingsMemento) {
    super();
    this.state = state;
  }

  private all(): Record<string, ModelSettings> {
    const raw = this.state.get<Record<string, unknown>>(STATE_KEY);
    return raw && typeof raw === 'object' ? (raw as Record<string, ModelSettings>) : {};
  }

  get(service: ServiceId, model: string): ModelSettings {
    return cleanSettings(this.all()[settingsKey(service, model)]);
  }

  async set(service: ServiceId, model: string, settings: ModelSettings): Promise<void> {
    const all = { ...this.all() };
    const clean = cleanSettings(settings);
    const key = settingsKey(service, model);
    if (Object.keys(clean).length === 0) delete all[key];
    else all[key] = clean;
    await this.state.update(STATE_KEY, all);
    this.changed.fire({ service, model });
  }
}
