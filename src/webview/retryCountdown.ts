// The line under the prompt box that counts down while the service asked to wait.
import type { UiKey } from '../shared/uiStrings.ts';
import { byId } from './dom.ts';
import type { ChatStore } from './store.ts';

export function createRetryCountdown(store: ChatStore) {
  const { s } = store;
  let countdown: number | undefined;

  return function render(): void {
    const retry = byId('retry');
    clearInterval(countdown);
    if (!store.state.pending?.retryUntil) {
      retry.hidden = true;
      return;
    }
    const tick = () => {
      const pending = store.state.pending;
      const left = Math.max(0, Math.ceil(((pending?.retryUntil ?? 0) - Date.now()) / 1000));
      // The wait's own wording by its error kind, else the general one.
      const wait = s(`wait.${pending?.retryKind ?? ''}` as UiKey, s('waiting', 'The service asked to wait;'));
      retry.textContent = `${wait} ${s('retryingIn', 'trying again in')} ${left} s`;
    };
    tick();
    countdown = window.setInterval(tick, 250);
    retry.hidden = false;
  };
}
