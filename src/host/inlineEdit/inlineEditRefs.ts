// The `#` references of an inline edit's instruction (issue 34 §2): resolved against the editor the edit was asked in
// (host/chat/contextReaders.ts, the chat's readers), shown under the box as the chips of what they add, refused by
// name with the chat's reason, and the exact text the request carries shown on demand in a read-only document.
import * as vscode from 'vscode';
import type { ContextRefusal, ResolvedPrompt } from '../../core/chat/contextRefs.ts';
import { redactSecrets } from '../../core/redact.ts';
import { Disposable } from '../../shared/dispose.ts';
import { type ContextRefName, findContextRefs } from '../../shared/contextRefs.ts';
import type { Attachment } from '../../shared/protocol.ts';
import { contextRefusalText } from '../chat/contextReaders.ts';
import type { InputShape } from './inlineEditInput.ts';
import { type EditAsk, sentText } from './inlineEditRequest.ts';

const t = vscode.l10n.t;
const SCHEME = 'keyward-edit-sent';

/** One reference as a chip: its name and what it holds ("#file (a.ts)", "#problems (2)"). */
function chip(name: ContextRefName, piece: Attachment): string {
  switch (name) {
    case 'file':
    case 'terminal':
      return `#${name} (${piece.fileName})`;
    case 'selection':
      return `#${name} (${piece.fileName}:${piece.startLine}–${piece.endLine})`;
    case 'problems':
      return `#${name} (${piece.text.split('\n').length})`;
    case 'changes':
      return `#${name} (${t('{0} lines', piece.text.split('\n').length)})`;
  }
}

/** What the references of `text` add, as chips, and what cannot go with its reason. Masked: names come from files. */
export function referenceLine(text: string, resolved: ResolvedPrompt): { adds: string; refused: string } {
  const names = [...new Set(findContextRefs(text).map((ref) => ref.name))];
  const refusedNames = new Set(resolved.refused.map((r) => r.name));
  const sent = names.filter((name) => !refusedNames.has(name));
  const chips = sent.flatMap((name, i) => (resolved.attachments[i] ? [chip(name, resolved.attachments[i])] : []));
  return {
    adds: chips.length > 0 ? redactSecrets(t('Adds: {0}', chips.join(' · '))) : '',
    refused: resolved.refused.map(contextRefusalText).join(' '),
  };
}

/**
 * A reference that cannot go, told with its reason: the person sends without it, goes back to the prompt (the text
 * as typed), or cancels (the prompt stays in the box's history). Nothing is sent without their word.
 */
export async function askAboutRefused(refused: readonly ContextRefusal[]): Promise<'without' | 'back' | undefined> {
  const without = t('Send Without It');
  const back = t('Back to the Prompt');
  const answer = await vscode.window.showWarningMessage(
    t('Edit with Keyward: {0}', refused.map(contextRefusalText).join(' ')),
    {
      modal: true,
      detail: t(
        'Send the edit without what cannot be read, or go back to the prompt to change it. Cancel sends nothing; Up in the box brings the prompt back.',
      ),
    },
    without,
    back,
  );
  return answer === without ? 'without' : answer === back ? 'back' : undefined;
}

/** "Show what is sent": the request's text in a read-only document beside the code, the box left open. */
export class SentTextView extends Disposable {
  // VS Code's emitter: TextDocumentContentProvider.onDidChange must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  private text = '';

  constructor() {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: () => this.text,
      }),
    );
  }

  /** `text` is shown as it is: the caller masks it (inlineEditRequest.ts `sentText`). */
  async show(heading: string, text: string): Promise<void> {
    this.text = `${heading}\n\n${text}\n`;
    const uri = vscode.Uri.parse(`${SCHEME}:/what-is-sent.md`);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, {
      preview: true,
      preserveFocus: true,
      viewColumn: vscode.ViewColumn.Beside,
    });
  }
}

/** What the box needs for its chips line and its "Show what is sent" button, for the edit being asked. */
export function boxPreview(
  resolve: (text: string) => Promise<ResolvedPrompt>,
  askOf: (resolved: ResolvedPrompt) => EditAsk,
  view: SentTextView,
  title: string,
): Required<Pick<InputShape, 'references' | 'showSent'>> {
  return {
    references: async (text) => referenceLine(text, await resolve(text)),
    showSent: async (text) => {
      const resolved = await resolve(text);
      const ask = askOf(resolved);
      const refused = resolved.refused.map(contextRefusalText).join(' ');
      const heading = [
        t('{0}: what is sent. Keys are masked here; the secret guard asks about any before anything is sent.', title),
        ...(refused ? [t('Cannot go, and is asked about on Enter: {0}', refused)] : []),
      ].join('\n\n');
      await view.show(heading, sentText(ask));
    },
  };
}

/**
 * Asks for the instruction until its references can all go, or the person sends without the ones that cannot:
 * each typed prompt is remembered first (Up brings it back), and "Back to the Prompt" opens the box on it again.
 */
export async function askWithReferences(
  ask: (value: string) => Promise<string | undefined>,
  resolve: (text: string) => Promise<ResolvedPrompt>,
  remember: (text: string) => void,
): Promise<{ instruction: string; context: Attachment[] } | undefined> {
  let value = '';
  for (;;) {
    const typed = await ask(value);
    if (typed === undefined) return undefined;
    remember(typed);
    const resolved = await resolve(typed);
    const answer = resolved.refused.length === 0 ? 'without' : await askAboutRefused(resolved.refused);
    if (answer === 'without') return { instruction: resolved.prompt, context: resolved.attachments };
    if (answer === undefined) return undefined;
    value = typed;
  }
}
