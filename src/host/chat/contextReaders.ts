// The VS Code side of the `#` references: each one read from the editor, the diagnostics, git and the terminal,
// then resolved by core/chat/contextRefs.ts. `resolveContextRefs(prompt, editor)` is the one call for a prompt
// typed with references (the inline edit's input); the chat's completion reads one reference at a time
// (`attachContext`), as a chip the person can remove before sending.
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/protocol.ts';
import type { ContextRefName } from '../../shared/contextRefs.ts';
import {
  type ContextRead,
  type ContextRefusal,
  type Problem,
  type ResolvedPrompt,
  contextAttachment,
  isRefusal,
  problemsText,
  resolvePrompt,
} from '../../core/chat/contextRefs.ts';
import { workingTreeDiff } from '../../core/chat/workingTreeDiff.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { ConversationStore } from './conversationStore.ts';
import { newId } from './panelAttachments.ts';

const t = vscode.l10n.t;

const SEVERITY: Record<vscode.DiagnosticSeverity, Problem['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** What a reference read from a file covers, so a chip restored after a reload reads it again (panelAttachments.ts). */
interface FileSource {
  uri: vscode.Uri;
  range: vscode.Range;
}

type Read = { read: ContextRead; source?: FileSource };

const usable = (editor: vscode.TextEditor | undefined) => (editor && !editor.document.isClosed ? editor : undefined);

/** The whole file, or the selection (never the whole file in its place: the person asked for the selection). */
function readCode(name: 'file' | 'selection', editor: vscode.TextEditor | undefined): Read {
  const open = usable(editor);
  if (!open) return { read: { name, why: 'noEditor' } };
  const document = open.document;
  const range =
    name === 'file'
      ? document.validateRange(new vscode.Range(0, 0, document.lineCount, 0))
      : document.validateRange(open.selection);
  if (name === 'selection' && range.isEmpty) return { read: { name, why: 'noSelection' } };
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return {
    read: {
      name,
      label: vscode.workspace.asRelativePath(document.uri),
      languageId: document.languageId,
      text: document.getText(range),
      startLine: range.start.line + 1,
      endLine: Math.max(range.start.line + 1, endLine),
    },
    source: { uri: document.uri, range },
  };
}

/** The diagnostics of the file, or of the selected lines when something is selected. */
function readProblems(editor: vscode.TextEditor | undefined): ContextRead {
  const open = usable(editor);
  if (!open) return { name: 'problems', why: 'noEditor' };
  const document = open.document;
  const selection = open.selection;
  const [from, to] = selection.isEmpty ? [0, document.lineCount - 1] : [selection.start.line, selection.end.line];
  const problems: Problem[] = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.range.end.line >= from && d.range.start.line <= to)
    .map((d) => ({
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      severity: SEVERITY[d.severity],
      message: d.message,
      source: d.source,
      code: typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code),
    }));
  if (problems.length === 0) return { name: 'problems', why: 'noProblems' };
  return {
    name: 'problems',
    label: vscode.workspace.asRelativePath(document.uri),
    languageId: 'text',
    text: problemsText(problems),
    startLine: from + 1,
    endLine: to + 1,
  };
}

/** The git diff of the folder of the file in the editor, or of the first folder. */
async function readChanges(editor: vscode.TextEditor | undefined): Promise<ContextRead> {
  const open = usable(editor);
  const folder =
    (open && vscode.workspace.getWorkspaceFolder(open.document.uri)) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return { name: 'changes', why: 'noFolder' };
  const got = await workingTreeDiff(folder.uri.fsPath);
  if ('why' in got) return { name: 'changes', ...got };
  return { name: 'changes', label: 'HEAD', languageId: 'diff', text: got.diff };
}

/**
 * The active terminal's selection. VS Code gives extensions no way to read it (`Terminal.selection` is a proposed
 * API, microsoft/vscode#188173), so this runs the terminal's own Copy and reads the clipboard: a marker is written
 * first (nothing selected leaves it there), and what the clipboard held is written back after. A clipboard holding
 * an image or files comes back as its text only.
 */
async function readTerminal(): Promise<ContextRead> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return { name: 'terminal', why: 'noTerminal' };
  const clipboard = vscode.env.clipboard;
  const held = await clipboard.readText();
  const marker = `keyward-terminal-selection-${newId()}`;
  await clipboard.writeText(marker);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const text = await clipboard.readText();
    if (text === marker || text.trim() === '') return { name: 'terminal', why: 'noSelection' };
    return { name: 'terminal', label: terminal.name, languageId: 'text', text: text.replace(/\r\n/g, '\n') };
  } catch (error) {
    return { name: 'terminal', why: 'unreadable', detail: (error as Error).message };
  } finally {
    await clipboard.writeText(held);
  }
}

async function read(name: ContextRefName, editor: vscode.TextEditor | undefined): Promise<Read> {
  switch (name) {
    case 'file':
    case 'selection':
      return readCode(name, editor);
    case 'problems':
      return { read: readProblems(editor) };
    case 'changes':
      return { read: await readChanges(editor) };
    case 'terminal':
      return { read: await readTerminal() };
  }
}

/**
 * Resolves the `#file`, `#selection`, `#problems`, `#changes` and `#terminal` references typed in `prompt`
 * against `editor` (the file and selection they mean): the prompt without them, each one's piece as an
 * attachment, and what could not be read or is too big (`contextRefusalText` words it). Nothing here passes the
 * secret guard: the caller sends prompt and attachments through it, as every prompt goes.
 */
export function resolveContextRefs(prompt: string, editor: vscode.TextEditor | undefined): Promise<ResolvedPrompt> {
  return resolvePrompt(prompt, async (name) => (await read(name, editor)).read, newId);
}

/**
 * One reference chosen in the chat's completion, as a chip: a file or selection is remembered like the `+`
 * menu's (its text is read again after a reload); the others are a snapshot of the moment.
 */
export async function attachContext(
  name: ContextRefName,
  editor: vscode.TextEditor | undefined,
  store: ConversationStore,
): Promise<Attachment | ContextRefusal> {
  const got = await read(name, editor);
  if (isRefusal(got.read)) return got.read;
  const attachment = contextAttachment(got.read, newId());
  if ('why' in attachment || !got.source) return attachment;
  const { uri, range } = got.source;
  await store.rememberAttachment({
    id: attachment.id,
    uri: uri.toString(),
    range: [range.start.line, range.start.character, range.end.line, range.end.character],
  });
  return attachment;
}

/** Why a reference was not sent, in the person's words. */
export function contextRefusalText(refusal: ContextRefusal): string {
  const ref = `#${refusal.name}`;
  switch (refusal.why) {
    case 'noEditor':
      return t('{0}: open a file first.', ref);
    case 'noSelection':
      return refusal.name === 'terminal'
        ? t('{0}: nothing is selected in the terminal. Select the lines to send first.', ref)
        : t('{0}: nothing is selected in the editor. Select the code to send first.', ref);
    case 'noProblems':
      return t('{0}: the file (or the selection) has no problems.', ref);
    case 'noChanges':
      return t('{0}: the working tree has no changes against HEAD.', ref);
    case 'noTerminal':
      return t('{0}: no terminal is open.', ref);
    case 'noFolder':
      return t('{0}: open a folder that is a git repository first.', ref);
    case 'tooLarge':
      return t(
        '{0} is too big to send: {1} characters, and one reference may add {2} at most. Select a part of it instead.',
        ref,
        refusal.chars.toLocaleString('en-US'),
        refusal.limit.toLocaleString('en-US'),
      );
    case 'unreadable':
      return t('{0} could not be read: {1}', ref, redactSecrets(refusal.detail));
  }
}
