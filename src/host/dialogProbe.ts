// Keyward's own tests answer its questions and read what it told through this probe, which activate() passes as the
// dialogs port (dialogs.ts) when VS Code runs those tests, as the chat's PanelProbe: the quick fixes, the liveness
// check, Install Pre-commit Hook and the language models' access question all ask through it.
import { type Dialogs, windowDialogs } from './dialogs.ts';

/** A scripted answer: the item to pick, or undefined for none. */
export type Answer = (message: string, detail: string | undefined, ...items: string[]) => Promise<string | undefined>;

export class DialogProbe implements Dialogs {
  /** Answers the questions instead of a modal; the modal when unset. */
  answer: Answer | undefined;
  /** What Keyward told the person, newest last (the latest 200). */
  readonly told: string[] = [];

  ask(message: string, detail: string | undefined, ...items: string[]): Thenable<string | undefined> {
    return this.answer ? this.answer(message, detail, ...items) : windowDialogs.ask(message, detail, ...items);
  }

  tell(level: 'info' | 'warning' | 'error', message: string): void {
    this.told.push(message);
    if (this.told.length > 200) this.told.shift();
    windowDialogs.tell(level, message);
  }
}
