// What an empty chat says: which keys are stored (with a way to set or import
// each), a free model to try, and what the secret guard does. Built from the
// state alone, so it follows the keys as they are stored or deleted.
import type { UiStrings } from '../shared/uiStrings.ts';
import { DEFAULT_SERVICE, type ServiceId } from '../shared/serviceIds.ts';
import type { PanelAction, ServiceChoice } from '../shared/protocol.ts';

export interface EmptyStateInput {
  /** The services the host offers, with their names. */
  services: readonly ServiceChoice[];
  hasKey: Record<ServiceId, boolean>;
  s: UiStrings;
  run: (action: PanelAction, service: ServiceId) => void;
  tryFree: () => void;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

function button(label: string, onClick: () => void, primary = false): HTMLButtonElement {
  const b = el('button', primary ? 'primary' : '', label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** Which keys are stored, with a way to set or import each. */
function keysSection({ services, hasKey, s, run }: EmptyStateInput): HTMLElement {
  const keys = el('div', 'empty-keys');
  keys.append(el('h3', '', s('empty.keys', 'Keys')));
  // Setup starts here: importing what the environment holds is the first thing a newcomer can do in one click.
  if (services.some(({ id, keyOptional }) => !keyOptional && !hasKey[id])) {
    const importRow = el('div', 'empty-import');
    importRow.append(
      button(s('empty.import', 'Import from the environment'), () => run('importKeys', DEFAULT_SERVICE), true),
      el(
        'span',
        'empty-hint',
        s('empty.importHint', 'Reads OPENROUTER_API_KEY and OPENAI_API_KEY into secret storage.'),
      ),
    );
    keys.append(importRow);
  }
  for (const { id: service, name, keyOptional, signIn } of services) {
    // A local server answers without a key: "key stored" would not be true, "no key yet" would alarm.
    if (keyOptional) {
      const row = el('div', 'empty-key stored');
      row.dataset.service = service;
      row.append(
        el('span', 'empty-key-name', name),
        el('span', 'empty-key-state', s('empty.keyOptional', 'key optional')),
      );
      keys.append(row);
      continue;
    }
    const row = el('div', `empty-key ${hasKey[service] ? 'stored' : 'missing'}`);
    row.dataset.service = service;
    row.append(
      el('span', 'empty-key-name', name),
      el(
        'span',
        'empty-key-state',
        hasKey[service] ? s('empty.keyStored', 'key stored') : s('empty.noKey', 'no key yet'),
      ),
    );
    // Signing in puts a key in secret storage without one being copied or pasted: offered first where it exists.
    if (!hasKey[service] && signIn) row.append(button(s('empty.signIn', 'Sign in'), () => run('signIn', service)));
    if (!hasKey[service]) row.append(button(s('empty.setKey', 'Set key'), () => run('setKey', service)));
    keys.append(row);
  }
  return keys;
}

/** A free model to try, offered once the service that has one holds a key. */
function freeSection({ services, hasKey, s, tryFree }: EmptyStateInput): HTMLElement {
  const free = el('div', 'empty-free');
  // The service that offers a free model says so (ServiceChoice.freeModel); the webview names none itself.
  const freeService = services.find((choice) => choice.freeModel !== undefined);
  const canTry = freeService !== undefined && hasKey[freeService.id];
  const tryButton = button(s('empty.tryFree', 'Try a free model'), tryFree, canTry);
  tryButton.id = 'try-free';
  tryButton.disabled = !canTry;
  free.append(
    tryButton,
    el(
      'span',
      'empty-hint',
      canTry
        ? s('empty.tryFreeHint', 'The free router (openrouter/free) on the routing service costs nothing.')
        : s('empty.tryFreeNeedsKey', 'Needs a routing service key.'),
    ),
  );
  return free;
}

export function emptyState(input: EmptyStateInput): HTMLElement {
  const { s } = input;
  const root = el('section', 'empty-state');
  root.setAttribute('aria-label', s('empty.title', 'Ask about your code'));
  root.append(el('h2', 'empty-title', s('empty.title', 'Ask about your code')));
  root.append(keysSection(input), freeSection(input));
  root.append(
    el(
      'div',
      'empty-guard',
      el('h3', '', s('empty.guardTitle', 'The secret guard')),
      el(
        'p',
        '',
        s(
          'empty.guard',
          'Before anything is sent, the prompt and the attached code are scanned for keys. A key found is never sent: you redact it or cancel.',
        ),
      ),
    ),
    el('p', 'empty-hint', s('empty.selection', 'Select code in an editor and press Ctrl+Alt+K to ask about it.')),
  );
  return root;
}
