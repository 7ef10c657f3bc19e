// Which file an answer's code block is for, for Apply (issue 21 item 8): the file the block names (its fence's
// info string or a first-line comment), else the one file attached to the prompt it answers, else the person
// picks one (the open editors, or "Choose file…"). Never the active editor by default: a JS line once went into
// README.md. Apply writes only inside the workspace and never through a symbolic link; a path that leaves the
// workspace is refused by name. A file that runs code by itself (tasks, CI, hooks, package scripts: core/chat/
// applyRisk.ts) is never taken on the answer's word: the person picks it, told why; nothing in `.git` is written.
import { realpath } from 'node:fs/promises';
import { isAbsolute, normalize, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { namedPath } from '../../core/chat/applyRegion.ts';
import { type CodeRisk, codeRisk, insideGit } from '../../core/chat/applyRisk.ts';
import { UnsafePath, safeTarget } from '../../core/safeWrite.ts';

const t = vscode.l10n.t;

export type TargetResult =
  | { kind: 'file'; uri: vscode.Uri; how: 'named' | 'attached' | 'chosen'; risk?: CodeRisk }
  | { kind: 'refused'; message: string }
  | { kind: 'cancelled' };

/** The person's choice of file; tests answer it instead of a Quick Pick. */
export type ChooseFile = (candidates: vscode.Uri[], placeHolder: string) => Promise<vscode.Uri | undefined>;

/** What a file that runs code makes run, in the words of the banner and the question. */
export function riskWords(risk: CodeRisk): string {
  const words: Record<CodeRisk, string> = {
    editor: t('editor tasks, launch configurations and settings'),
    ci: t('CI jobs'),
    hooks: t('git hooks'),
    packageScripts: t('package scripts'),
    buildTools: t('build and test tools'),
    dependencies: t('installed packages'),
    environment: t('the shell or dev container environment'),
  };
  return words[risk];
}

/** The risk of a workspace file, from its path below its folder (untitled editors run nothing). */
export function riskOf(uri: vscode.Uri): CodeRisk | undefined {
  return uri.scheme === 'untitled' ? undefined : codeRisk(vscode.workspace.asRelativePath(uri, false));
}

const gitRefusal = (shown: string) => t('Apply refused: {0} is inside .git, which Keyward never writes.', shown);

function refusalFor(error: UnsafePath, shown: string): string {
  if (error.reason === 'symlink')
    return t('Apply refused: {0} is reached through a symbolic link; Keyward writes only to the file itself.', shown);
  if (error.reason === 'outside') return t('Apply refused: {0} is outside the workspace.', shown);
  return t('Apply refused: {0} is not a file in the workspace.', shown);
}

/**
 * Whether Apply may write `uri`: an untitled editor always; a file only when it lies in a workspace folder with no
 * symbolic link on the way (core/safeWrite.ts checks each part). Undefined when it may, else why not.
 */
export async function refusalOf(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme === 'untitled') return undefined;
  const shown = uri.scheme === 'file' ? uri.fsPath : uri.toString();
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || uri.scheme !== 'file' || folder.uri.scheme !== 'file')
    return t('Apply refused: {0} is outside the workspace.', shown);
  const rel = relative(folder.uri.fsPath, uri.fsPath);
  const real = await realpath(uri.fsPath).catch(() => uri.fsPath);
  if (insideGit(uri.fsPath) || insideGit(real)) return gitRefusal(vscode.workspace.asRelativePath(uri));
  try {
    const target = await safeTarget(folder.uri.fsPath, rel);
    return target.exists ? undefined : t('Apply refused: {0} does not exist.', vscode.workspace.asRelativePath(uri));
  } catch (error) {
    if (error instanceof UnsafePath) return refusalFor(error, vscode.workspace.asRelativePath(uri));
    throw error;
  }
}

/** The workspace file a block names, checked; `missing` when no workspace folder has it. */
async function namedFile(path: string): Promise<TargetResult | 'missing'> {
  if (insideGit(path)) return { kind: 'refused', message: gitRefusal(path) };
  const clean = normalize(path.replace(/\\/g, '/'));
  if (isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`) || clean.startsWith('../'))
    return { kind: 'refused', message: t('Apply refused: {0} is outside the workspace.', path) };
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  for (const folder of folders) {
    try {
      const target = await safeTarget(folder.uri.fsPath, clean);
      // The folder's own address (it may itself be a link the person opened), so an open editor of the file is met.
      if (target.exists)
        return { kind: 'file', uri: vscode.Uri.joinPath(folder.uri, ...clean.split(sep)), how: 'named' };
    } catch (error) {
      if (!(error instanceof UnsafePath)) throw error;
      // A missing folder on the way is "not here"; a link or a way out is refused by name.
      if (error.reason !== 'missing_folder') return { kind: 'refused', message: refusalFor(error, path) };
    }
  }
  // A bare name (`greet.ts`) or a path from a folder below the root: the one workspace file ending so.
  const found = await vscode.workspace.findFiles(`**/${clean.split(sep).join('/')}`, '**/node_modules/**', 2);
  if (found.length === 1) {
    const refusal = await refusalOf(found[0]!);
    return refusal ? { kind: 'refused', message: refusal } : { kind: 'file', uri: found[0]!, how: 'named' };
  }
  return 'missing';
}

/** The files open in editors that Apply may write, most recent tab group first. */
async function openFiles(): Promise<vscode.Uri[]> {
  const seen = new Map<string, vscode.Uri>();
  for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
    if (!(tab.input instanceof vscode.TabInputText)) continue;
    const uri = tab.input.uri;
    if (!seen.has(uri.toString()) && (await refusalOf(uri)) === undefined) seen.set(uri.toString(), uri);
  }
  return [...seen.values()];
}

/** A Quick Pick of the open files and "Choose file…" (a dialog that starts in the workspace). */
export const quickPickFile: ChooseFile = async (candidates, placeHolder) => {
  const choose = t('Choose file…');
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...candidates.map((uri) => {
      const risk = riskOf(uri);
      return {
        label: vscode.workspace.asRelativePath(uri),
        description: uri.scheme === 'untitled' ? t('unsaved') : undefined,
        detail: risk ? `$(warning) ${t('This file runs code: {0}.', riskWords(risk))}` : undefined,
        uri,
      };
    }),
    { label: choose, iconPath: new vscode.ThemeIcon('folder-opened') },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: t('Apply the code to which file?'), placeHolder });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    canSelectFolders: false,
    openLabel: t('Apply Here'),
    ...(folder ? { defaultUri: folder } : {}),
  });
  return chosen?.[0];
};

/** The file the block is for, checked, or why Apply stops. */
async function findTarget(
  code: string,
  languageId: string,
  attached: readonly vscode.Uri[],
  choose: ChooseFile,
): Promise<TargetResult> {
  const named = namedPath(languageId, code);
  let missing: string | undefined;
  if (named) {
    const result = await namedFile(named);
    if (result !== 'missing') return result;
    missing = named;
  }
  const attachedFiles = [...new Map(attached.map((uri) => [uri.toString(), uri])).values()];
  if (!missing && attachedFiles.length === 1) {
    const refusal = await refusalOf(attachedFiles[0]!);
    return refusal ? { kind: 'refused', message: refusal } : { kind: 'file', uri: attachedFiles[0]!, how: 'attached' };
  }
  const placeHolder = missing
    ? t('The code names {0}, which is not in the workspace: choose the file to apply it to', missing)
    : t('The code does not say which file it is for: choose the file to apply it to');
  const candidates = [...attachedFiles, ...(await openFiles())];
  const chosen = await choose([...new Map(candidates.map((uri) => [uri.toString(), uri])).values()], placeHolder);
  if (!chosen) return { kind: 'cancelled' };
  const refusal = await refusalOf(chosen);
  return refusal ? { kind: 'refused', message: refusal } : { kind: 'file', uri: chosen, how: 'chosen' };
}

/**
 * The file the block is for, checked, or why Apply stops. A file that runs code is never taken because the answer
 * named it, or because it was attached: the person picks it in the question, which says what it runs.
 */
export async function applyTarget(
  code: string,
  languageId: string,
  attached: readonly vscode.Uri[],
  choose: ChooseFile,
): Promise<TargetResult> {
  const found = await findTarget(code, languageId, attached, choose);
  if (found.kind !== 'file') return found;
  // Every way in is checked once more here, the real path included: nothing reaches .git through a link.
  const again = await refusalOf(found.uri);
  if (again) return { kind: 'refused', message: again };
  const risk = riskOf(found.uri);
  if (!risk) return found;
  if (found.how === 'chosen') return { ...found, risk };
  const shown = vscode.workspace.asRelativePath(found.uri);
  const placeHolder = t(
    'The code is for {0}, a file that runs code ({1}): choose it only if you mean to change that',
    shown,
    riskWords(risk),
  );
  const others = (await openFiles()).filter((uri) => uri.toString() !== found.uri.toString());
  const chosen = await choose([found.uri, ...others], placeHolder);
  if (!chosen) return { kind: 'cancelled' };
  const refusal = await refusalOf(chosen);
  if (refusal) return { kind: 'refused', message: refusal };
  const chosenRisk = riskOf(chosen);
  return { kind: 'file', uri: chosen, how: 'chosen', ...(chosenRisk ? { risk: chosenRisk } : {}) };
}
