// The inline edit's input: a Quick Pick used as a free-text box, because an InputBox cannot complete. While the text
// ends in a `#` word, the references it may become are its items (accepting one completes the word and keeps the box
// open); otherwise its one item says where the edit goes and what the references add (their chips, or why one cannot
// go), and Enter sends the text — the way VS Code's Go to Line shows its prompt as an item
// (microsoft/vscode src/vs/editor/contrib/quickAccess/browser/gotoLineQuickAccess.ts). Up and Down walk the earlier
// prompts (keyward.inlineEditHistoryPrevious/Next, bound while keyward.inlineEditInput is set), except while the
// completion list is shown, where they move in the list as in any Quick Pick.
import * as vscode from 'vscode';
import { type ContextRefName, completeRef, findContextRefs, refCompletionAtEnd } from '../../shared/contextRefs.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { InputOutcome, InputShape } from './inlineEditInput.ts';

const t = vscode.l10n.t;
const INPUT_CONTEXT = 'keyward.inlineEditInput';

interface BoxItem extends vscode.QuickPickItem {
  /** A completion: the reference the `#` word becomes. */
  ref?: ContextRefName;
}

const ICONS: Record<ContextRefName, string> = {
  file: 'file',
  selection: 'selection',
  problems: 'warning',
  changes: 'git-compare',
  terminal: 'terminal',
};

/** What each reference adds, in the chat's completion's words (host/chat/panelStrings.ts). */
function refWords(name: ContextRefName): string {
  switch (name) {
    case 'file':
      return t('The whole file in the editor');
    case 'selection':
      return t('The selection in the editor');
    case 'problems':
      return t('The problems of the file, or of the selected lines');
    case 'changes':
      return t('The changes in the working tree (git diff)');
    case 'terminal':
      return t('The selection in the active terminal');
  }
}

function completionItems(names: readonly ContextRefName[]): BoxItem[] {
  return names.map((name) => ({
    label: `#${name}`,
    iconPath: new vscode.ThemeIcon(ICONS[name]),
    description: refWords(name),
    // The box's own filter matches the whole text, not the `#` word: every item stays, this list is the filter.
    alwaysShow: true,
    ref: name,
  }));
}

/** The one item while nothing completes: where the edit goes, what the references add, what cannot go. */
function promptItem(where: string, line: { adds: string; refused: string }): BoxItem {
  const item: BoxItem = {
    label: where,
    iconPath: new vscode.ThemeIcon('sparkle'),
    description: line.adds || t('Enter sends; # points at context'),
    alwaysShow: true,
  };
  if (line.refused) item.detail = `$(warning) ${line.refused} ${t('Delete its #word to send without it.')}`;
  else if (line.adds) item.detail = t('To leave a reference out, delete its #word.');
  return item;
}

function tellUnshown(error: unknown): void {
  void vscode.window.showErrorMessage(
    t('Keyward could not show what is sent: {0}', redactSecrets((error as Error).message)),
  );
}

export class EditInput {
  private box: vscode.QuickPick<BoxItem> | undefined;
  /** Where Up and Down are in the history: its length means the text being typed. */
  private at = 0;
  private draft = '';
  private shown: string[] = [];
  private historyKeys: boolean | undefined;
  /** Redraws the box after its text was set from here (VS Code reports such a change late, or not at all). */
  private changed: (() => void) | undefined;

  ask(shape: InputShape, history: readonly string[]): Promise<InputOutcome> {
    const box = vscode.window.createQuickPick<BoxItem>();
    this.box = box;
    this.shown = [...history];
    this.at = this.shown.length;
    box.title = shape.title;
    box.placeholder = shape.placeholder;
    box.value = shape.value;
    box.ignoreFocusOut = true;
    const switchButton: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('arrow-swap'),
      tooltip: t('Switch the model or service'),
    };
    const sentButton: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('eye'),
      tooltip: t('Show what is sent'),
    };
    box.buttons = shape.showSent ? [switchButton, sentButton] : [switchButton];
    const refs = this.references(box, shape);
    this.changed = refs.changed;
    return new Promise<InputOutcome>((resolve) => {
      let outcome: InputOutcome;
      const parts = [
        box.onDidChangeValue(() => refs.changed()),
        box.onDidAccept(() => {
          const picked = box.selectedItems[0] ?? box.activeItems[0];
          const completion = refCompletionAtEnd(box.value);
          if (picked?.ref && completion) {
            box.value = completeRef(box.value, completion.start, picked.ref);
            return refs.changed();
          }
          if (box.value.trim() === '') return;
          outcome = { kind: 'send', text: box.value.trim() };
          box.hide();
        }),
        box.onDidTriggerButton((button) => {
          if (button === sentButton) return void shape.showSent?.(box.value).catch(tellUnshown);
          outcome = { kind: 'switch', text: box.value };
          box.hide();
        }),
        box.onDidHide(() => {
          parts.forEach((p) => p.dispose());
          box.dispose();
          if (this.box === box) this.box = undefined;
          this.setHistoryKeys(false);
          resolve(outcome);
        }),
      ];
      refs.changed();
      box.show();
    });
  }

  /**
   * Keeps the items in step with the text: the completion list, or the prompt item with the chips of the references
   * typed so far, read again only when the set of references changes (reading #terminal touches the clipboard).
   */
  private references(box: vscode.QuickPick<BoxItem>, shape: InputShape) {
    let line = { adds: '', refused: '' };
    let readFor = '';
    const draw = () => {
      const completion = refCompletionAtEnd(box.value);
      box.items = completion ? completionItems(completion.names) : [promptItem(shape.prompt, line)];
      this.setHistoryKeys(!completion);
    };
    const read = async () => {
      const value = box.value;
      const names = [...new Set(findContextRefs(value).map((ref) => ref.name))].join(' ');
      if (names === readFor) return;
      readFor = names;
      if (names === '' || !shape.references) {
        line = { adds: '', refused: '' };
        box.busy = false;
      } else {
        box.busy = true;
        const got = await shape.references(value).catch((error: unknown) => ({
          adds: '',
          refused: t('The references could not be read: {0}', redactSecrets((error as Error).message)),
        }));
        if (readFor !== names) return;
        box.busy = false;
        line = got;
      }
      draw();
    };
    return {
      changed: () => {
        draw();
        void read();
      },
    };
  }

  /** Up and Down are the history's unless the completion list is shown (package.json binds them on this key). */
  private setHistoryKeys(on: boolean): void {
    if (this.historyKeys === on) return;
    this.historyKeys = on;
    void vscode.commands.executeCommand('setContext', INPUT_CONTEXT, on);
  }

  /** Up: the prompt before the one shown. */
  previous(): void {
    this.move(-1);
  }

  /** Down: the next prompt, and past the newest the text that was being typed. */
  next(): void {
    this.move(1);
  }

  private move(step: number): void {
    const box = this.box;
    if (!box) return;
    if (this.at === this.shown.length) this.draft = box.value;
    this.at = Math.min(this.shown.length, Math.max(0, this.at + step));
    box.value = this.at === this.shown.length ? this.draft : this.shown[this.at]!;
    this.changed?.();
  }
}
