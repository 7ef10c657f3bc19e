// The view's header: the service switch, the model picker (or the model id box), the no-key notice,
// and the prompt box's placeholder, which follows the Enter setting.
import type { WebviewMessage } from '../shared/protocol.ts';
import { isServiceId } from '../shared/serviceIds.ts';
import { byId } from './dom.ts';
import { createModelPicker } from './picker.ts';
import { drawServiceSwitch, markService, serviceSwitchKey } from './serviceSwitch.ts';
import type { ChatStore } from './store.ts';

/** The header's controls: the service switch, the model id box, Set Key, refresh and the model's settings. */
function wireHeader(store: ChatStore, post: (message: WebviewMessage) => void): void {
  const services = byId('services');
  services.addEventListener('keydown', (event) => {
    if (serviceSwitchKey(services, event)) event.preventDefault();
  });
  services.addEventListener('click', (event) => {
    const service = (event.target as HTMLElement).closest('button')?.dataset.service;
    if (!isServiceId(service)) return;
    store.dispatch({ type: 'service/local', service });
    post({ type: 'service/select', service });
  });
  byId<HTMLInputElement>('model-id').addEventListener('change', (e) => {
    const model = (e.target as HTMLInputElement).value.trim();
    if (!model) return;
    store.dispatch({ type: 'model/local', model });
    post({ type: 'model/select', service: store.state.service, model });
  });
  byId('set-key').addEventListener('click', () =>
    post({ type: 'action/run', action: 'setKey', service: store.state.service }),
  );
  byId('refresh-models').addEventListener('click', () =>
    post({ type: 'models/refresh', service: store.state.service }),
  );
  byId('model-settings').addEventListener('click', () =>
    post({
      type: 'models/editSettings',
      service: store.state.service,
      model: store.state.selectedModel[store.state.service],
    }),
  );
}

export function createHeader(store: ChatStore, post: (message: WebviewMessage) => void) {
  const { s } = store;
  const picker = createModelPicker(
    s,
    (text) => store.dispatch({ type: 'model/filter', text }),
    (model) => {
      // The search is for finding one model; once found, the next opening shows the whole list.
      store.dispatch({ type: 'model/filter', text: '' });
      store.dispatch({ type: 'model/local', model });
      post({ type: 'model/select', service: store.state.service, model });
    },
  );

  /** The service switch (built again only when the list of services changes). */
  let renderedServices = '';
  function renderServices(): void {
    const { state } = store;
    const group = byId('services');
    const key = JSON.stringify(state.services.map((x) => [x.id, x.name, x.shortName]));
    if (key !== renderedServices) {
      renderedServices = key;
      drawServiceSwitch(group, state.services);
    }
    markService(group, state.service);
  }

  function render(): void {
    const { state } = store;
    renderServices();
    const canList = state.canListModels[state.service];
    byId('model-list-row').hidden = !canList;
    byId('model-id-row').hidden = canList;
    const idInput = byId<HTMLInputElement>('model-id');
    if (document.activeElement !== idInput) idInput.value = state.selectedModel[state.service];
    picker.render({
      service: state.service,
      pricedModels: state.services.find((x) => x.id === state.service)?.pricedModels ?? false,
      models: state.models[state.service],
      selected: state.selectedModel[state.service],
      recent: state.recentModels[state.service],
      filter: state.modelFilter,
    });
    byId('no-key').hidden = state.hasKey[state.service];
    const enterSends = state.enterSends !== false;
    byId<HTMLTextAreaElement>('prompt').placeholder = enterSends
      ? s('placeholder.enter', 'Ask… (Enter to send, Shift+Enter for a new line)')
      : s('placeholder.shiftEnter', 'Ask… (Shift+Enter to send, Enter for a new line)');
  }

  /** The model the next prompt goes to: the picked one, or what is typed in the id box. */
  function currentModel(): string {
    const { state } = store;
    return state.canListModels[state.service]
      ? state.selectedModel[state.service]
      : byId<HTMLInputElement>('model-id').value.trim();
  }

  return {
    render,
    currentModel,
    wire: () => wireHeader(store, post),
    get pickerOpen() {
      return picker.isOpen;
    },
  };
}
