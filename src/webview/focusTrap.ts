// Tab stays within the chat. The view is a frame inside the workbench: past its last control the browser would
// carry the focus out to whatever the workbench puts next, so Tab wraps to the first control here and Shift+Tab to
// the last, in the page's order (header, messages, composer). The way out is said once on the prompt box, as VS
// Code's own chat input names its help key: Escape, when it has nothing else to do here (no answer to stop, no menu
// to close), goes back to the editor, and F6 (which the webview host forwards to the workbench like every key)
// moves to the next part of the window. This follows WCAG 2.1.2: the focus can always leave by the keyboard, and
// the page says how.
import type { WebviewMessage } from '../shared/protocol.ts';

const TABBABLE = 'button, a[href], input, select, textarea, summary, [tabindex]';

/** The controls Tab reaches, in the page's order: not disabled, not hidden, not taken out of the order. */
export function tabbables(root: ParentNode = document): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) =>
      el.tabIndex >= 0 &&
      !(el as HTMLButtonElement).disabled &&
      !el.closest('[hidden], [inert], [aria-hidden="true"]') &&
      // A real browser knows what CSS hides; a document without layout (a test) goes by the attributes above.
      (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
  );
}

/** Where Tab (or Shift+Tab) from `from` must go instead of leaving the frame; undefined lets the browser move. */
export function wrapTarget(list: readonly HTMLElement[], from: Element | null, back: boolean): HTMLElement | undefined {
  if (list.length === 0) return undefined;
  const first = list[0]!;
  const last = list[list.length - 1]!;
  // From the page itself (nothing chosen yet), Shift+Tab starts at the end, as Tab starts at the beginning.
  const nowhere = !from || from === document.body;
  if (back) return from === first || nowhere ? last : undefined;
  return from === last ? first : undefined;
}

export function wireFocusTrap(post: (message: WebviewMessage) => void): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
    const target = wrapTarget(tabbables(), document.activeElement, e.shiftKey);
    if (!target) return;
    e.preventDefault();
    target.focus();
  });
  // Registered after the composer's and the pickers' Escape handlers (see main.ts): they mark the key handled.
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.isComposing) return;
    e.preventDefault();
    post({ type: 'focus/editor' });
  });
}
