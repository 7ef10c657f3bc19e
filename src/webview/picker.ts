// The model picker: one button that opens a search box over a listbox (the
// ARIA combobox pattern), so it is driven from the keyboard as well as the mouse.
import type { ServiceId } from '../shared/serviceIds.ts';
import type { ModelOption } from '../shared/protocol.ts';
import { codicon, element } from './dom.ts';
import { contextLabel, moveActive, pickerList, priceLabel } from './modelPicker.ts';
import type { Strings } from './turnNotes.ts';

export interface PickerView {
  service: ServiceId;
  /** The service's model list carries prices; without them no "variable price" is shown. */
  pricedModels: boolean;
  models: ModelOption[] | null;
  selected: string;
  recent: string[];
  filter: string;
}

export interface ModelPicker {
  render(view: PickerView): void;
  readonly isOpen: boolean;
  close(): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** One model in the list: its name and badges, then its id, price and context size. */
function optionNode(
  model: ModelOption,
  index: number,
  flags: { selected: boolean; recent: boolean; pricedModels: boolean },
  s: Strings,
): HTMLLIElement {
  const { selected, recent } = flags;
  const li = element('li', { id: `model-option-${index}`, className: 'model-option' });
  li.setAttribute('role', 'option');
  li.setAttribute('aria-selected', String(selected));
  li.dataset.id = model.id;
  const title = element('div', { className: 'model-title' });
  title.append(element('span', { className: 'model-name', textContent: model.name }));
  if (model.free) title.append(element('span', { className: 'badge', textContent: s('free', 'free') }));
  if (recent) title.append(element('span', { className: 'model-recent', textContent: s('recent', 'recent') }));
  if (selected) title.append(codicon('check'));
  const details = [
    model.name !== model.id ? model.id : '',
    model.free ? '' : priceLabel(model, flags.pricedModels, s),
    contextLabel(model.contextLength, s),
    // What the model list declares: images can be pasted or dropped into the prompt box for this one.
    model.imageInput === true ? s('imageInput', 'images') : '',
  ].filter(Boolean);
  li.append(title, element('div', { className: 'model-details', textContent: details.join(' · ') }));
  return li;
}

interface PickerParts {
  button: HTMLButtonElement;
  popup: HTMLElement;
  input: HTMLInputElement;
  list: HTMLUListElement;
}

interface PickerActions {
  open(): void;
  close(focusButton?: boolean): void;
  chooseActive(): void;
  /** Chooses the model a clicked option names. */
  choose(id: string | undefined): void;
  filter(text: string): void;
  /** Moves the active option for an arrow, Home or End key; false when the key does not move it. */
  move(key: string): boolean;
}

/** The combobox's keys and clicks: arrows open it, Enter chooses, Escape and a click outside close it. */
function wirePicker({ button, popup, input, list }: PickerParts, actions: PickerActions): void {
  button.addEventListener('click', () => (popup.hidden ? actions.open() : actions.close()));
  button.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      actions.open();
    }
  });
  input.addEventListener('input', () => actions.filter(input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      actions.chooseActive();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      actions.close();
    } else if (e.key === 'Tab') actions.close(false);
    else if (actions.move(e.key)) e.preventDefault();
  });
  list.addEventListener('mousedown', (e) => e.preventDefault());
  list.addEventListener('click', (e) => {
    const option = (e.target as HTMLElement).closest<HTMLElement>('[role="option"]');
    if (option) actions.choose(option.dataset.id);
  });
  document.addEventListener('mousedown', (e) => {
    if (!popup.hidden && !popup.contains(e.target as Node) && !button.contains(e.target as Node)) actions.close(false);
  });
}

/** The option at `index` marked active (the input's aria-activedescendant), scrolled into view. */
function markActive(list: HTMLUListElement, input: HTMLInputElement, index: number): void {
  const options = Array.from(list.children) as HTMLElement[];
  options.forEach((o, i) => o.classList.toggle('active', i === index));
  const node = options[index];
  if (node) {
    input.setAttribute('aria-activedescendant', node.id);
    node.scrollIntoView({ block: 'nearest' });
  } else input.removeAttribute('aria-activedescendant');
}

/** Draws the list the view asks for (or says it is loading, or that nothing matches); returns the models shown. */
function drawOptions(list: HTMLUListElement, view: PickerView, s: Strings): ModelOption[] {
  if (view.models === null) {
    list.replaceChildren(
      element('li', { className: 'model-empty', textContent: s('loadingModels', 'Loading models…') }),
    );
    return [];
  }
  const shown = pickerList(view.models, view.filter, view.recent);
  list.replaceChildren(
    ...shown.map((m, i) =>
      optionNode(
        m,
        i,
        { selected: m.id === view.selected, recent: view.recent.includes(m.id), pricedModels: view.pricedModels },
        s,
      ),
    ),
  );
  if (shown.length === 0)
    list.append(element('li', { className: 'model-empty', textContent: s('noModels', 'No model matches.') }));
  return shown;
}

export function createModelPicker(
  s: Strings,
  onFilter: (text: string) => void,
  onSelect: (model: string) => void,
): ModelPicker {
  const button = $<HTMLButtonElement>('model-picker');
  const popup = $('model-popup');
  const input = $<HTMLInputElement>('model-filter');
  const list = $<HTMLUListElement>('model');
  let view: PickerView | null = null;
  let shown: ModelOption[] = [];
  let active = -1;

  const setActive = (index: number) => {
    active = index;
    markActive(list, input, index);
  };

  const open = () => {
    // The box was kept from a render while it had the focus (the filter is cleared as a model is chosen):
    // show the filter the list was drawn with, not a stale one over an unfiltered list.
    input.value = view?.filter ?? '';
    popup.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    input.setAttribute('aria-expanded', 'true');
    input.focus();
    input.select();
    const selected = shown.findIndex((m) => m.id === view?.selected);
    setActive(Math.max(0, selected));
  };
  const close = (focusButton = true) => {
    if (popup.hidden) return;
    popup.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-expanded', 'false');
    if (focusButton) button.focus();
  };
  const choose = (model: ModelOption | undefined) => {
    if (!model) return;
    onSelect(model.id);
    close();
  };

  wirePicker(
    { button, popup, input, list },
    {
      open,
      close,
      chooseActive: () => choose(shown[active]),
      choose: (id) => choose(shown.find((m) => m.id === id)),
      filter: onFilter,
      move: (key) => {
        const next = moveActive(active, key, shown.length);
        if (next === active) return false;
        setActive(next);
        return true;
      },
    },
  );

  return {
    get isOpen() {
      return !popup.hidden;
    },
    close,
    render(next: PickerView) {
      view = next;
      if (document.activeElement !== input && input.value !== next.filter) input.value = next.filter;
      const current = next.models?.find((m) => m.id === next.selected);
      $('model-picker-label').textContent = current?.name ?? next.selected;
      $('free-badge').hidden = !current?.free;
      // Nothing is active while the list loads (`shown` is empty then).
      shown = drawOptions(list, next, s);
      setActive(next.filter ? (shown.length > 0 ? 0 : -1) : shown.findIndex((m) => m.id === next.selected));
    },
  };
}
