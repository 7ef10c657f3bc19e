// The bar on each code block of an answer: its language and Copy, Insert at
// cursor and Apply (merged into the file it is for, then kept or undone; applyStatus.ts).
import type { WebviewMessage } from '../shared/protocol.ts';
import { type ApplyStatuses, blockKey } from './applyStatus.ts';
import { codicon, element, iconButton } from './dom.ts';
import type { Strings } from './turnNotes.ts';

/** The fence's language as the highlighter labelled it (`language-xyz`), or ''. */
export function blockLanguage(code: Element | null): string {
  const match = /(?:^|\s)language-([\w#+.-]+)/.exec(code?.className ?? '');
  return match ? match[1]! : '';
}

export function decorateCodeBlocks(
  container: HTMLElement,
  s: Strings,
  post: (message: WebviewMessage) => void,
  announce: (text: string) => void = () => undefined,
  applies?: ApplyStatuses,
): void {
  for (const pre of Array.from(container.querySelectorAll('pre'))) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const codeNode = pre.querySelector('code');
    const code = codeNode?.textContent ?? pre.textContent ?? '';
    const language = blockLanguage(codeNode);
    // The file the fence names (highlight.ts puts it in the block's title): shown on the bar, sent with Apply.
    const file = pre.title;
    // A block wider than the chat scrolls sideways: the keyboard must reach it to scroll it (axe's
    // scrollable-region-focusable, found on a CI workflow's long lines in the side bar).
    pre.tabIndex = 0;
    const wrapper = element('div', { className: 'code-block' });
    const bar = element('div', { className: 'code-bar' });
    bar.append(element('span', { className: 'code-lang', textContent: language || s('plainText', 'text') }));
    if (file) bar.append(element('span', { className: 'code-file', textContent: file }));
    const tools = element('div', { className: 'code-tools', role: 'toolbar' });
    tools.setAttribute('aria-label', s('codeActions', 'Code actions'));
    const copy = iconButton('copy', s('copy', 'Copy'), () => {
      post({ type: 'code/copy', code });
      copied(copy, s, announce);
    });
    tools.append(
      copy,
      iconButton('insert', s('insert', 'Insert at cursor'), () => post({ type: 'code/insert', code, mode: 'cursor' })),
      iconButton('replace', s('replace', 'Replace selection'), () =>
        post({ type: 'code/insert', code, mode: 'replace' }),
      ),
      iconButton('git-compare', s('apply', 'Apply to its file (then Keep or Undo)'), () => {
        const turnId = wrapper.closest<HTMLElement>('[data-turn-id]')?.dataset.turnId;
        const applyId = applies?.start(blockKey(wrapper));
        if (applyId) wrapper.querySelector('.apply-status')?.remove();
        post({
          type: 'code/apply',
          code,
          languageId: file ? `${language} ${file}` : language,
          ...(applyId ? { applyId } : {}),
          ...(turnId ? { turnId } : {}),
        });
      }),
    );
    bar.append(tools);
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
  }
}

/**
 * Says a copy worked where the eye is (the icon turns into a tick and the button is named "Copied" for a
 * moment) and to a screen reader (announced), as Copilot Chat's copy buttons do.
 */
export function copied(button: HTMLButtonElement, s: Strings, announce: (text: string) => void): void {
  const label = button.getAttribute('aria-label') ?? '';
  const done = s('copied', 'Copied');
  button.replaceChildren(codicon('check'));
  button.setAttribute('aria-label', done);
  button.title = done;
  announce(done);
  setTimeout(() => {
    button.replaceChildren(codicon('copy'));
    button.setAttribute('aria-label', label);
    button.title = label;
  }, 1200);
}
