// "Keys in Git History": the lasting list of what Scan Git History found, in
// the Explorer. One node per key (masked), under it every commit that added it
// with file and line; context actions rotate the key or copy the commit id.
// The view appears after the first scan and keeps its results until the next.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { FileFinding } from '../../core/scan/report.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { PROVIDERS, isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import type { KeyOwner } from '../../shared/keyShapes.ts';
import { CommandId } from '../commandIds.ts';

const t = vscode.l10n.t;

export const HISTORY_VIEW_ID = 'keyward.historyFindings';
const SCANNED_CONTEXT = 'keyward.historyScanned';

/** Where each service's key is rotated. */
const ROTATE_COMMAND = (service: ServiceId) => SERVICES[service].commands.rotateKey;

export interface HistoryHit {
  root: string;
  path: string;
  /** 0-based. */
  line: number;
  commit: string;
  subject: string;
  masked: string;
  fingerprint: string;
  service: KeyOwner;
}

export interface HistoryResults {
  hits: HistoryHit[];
  commits: number;
  /** Commits the scan meant to read, when known. */
  total: number | undefined;
  cancelled: boolean;
  /** Why the scan failed (redacted), when it did. */
  failure?: string;
}

export type HistoryNode =
  | { kind: 'key'; fingerprint: string; masked: string; service: KeyOwner; hits: HistoryHit[] }
  | { kind: 'hit'; hit: HistoryHit }
  | { kind: 'note'; text: string; problem: boolean };

export function historyHit(root: string, finding: FileFinding): HistoryHit {
  return {
    root,
    path: finding.path,
    line: finding.finding.line,
    commit: finding.commit ?? '',
    subject: finding.subject ?? '',
    masked: finding.finding.masked,
    fingerprint: finding.finding.fingerprint,
    service: finding.finding.service,
  };
}

export class GitHistoryView extends Disposable implements vscode.TreeDataProvider<HistoryNode> {
  // VS Code's emitter, not shared/event's: TreeDataProvider.onDidChangeTreeData must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<HistoryNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private tree: vscode.TreeView<HistoryNode> | undefined;
  private roots: HistoryNode[] = [];

  /** Shows a scan's results, replacing the last ones, and brings the view forward. */
  async show(results: HistoryResults): Promise<void> {
    this.roots = this.nodes(results);
    this.tree ??= this._register(
      vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }),
    );
    this.tree.message = this.summary(results);
    this.changed.fire(undefined);
    await vscode.commands.executeCommand('setContext', SCANNED_CONTEXT, true);
    await vscode.commands.executeCommand(`${HISTORY_VIEW_ID}.focus`).then(undefined, () => undefined);
  }

  private summary(results: HistoryResults): string {
    const keys = this.roots.filter((n) => n.kind === 'key').length;
    const read =
      results.total === undefined
        ? String(results.commits)
        : t('{0} of {1}', String(results.commits), String(results.total));
    if (results.failure) return t('The scan failed after {0} commits: the list is incomplete.', read);
    if (results.cancelled) return t('Cancelled after {0} commits: the list is incomplete.', read);
    return keys === 0
      ? t('No key was ever committed ({0} commits read).', read)
      : t('{0} key(s) ever committed ({1} commits read). Rotate each: it stays in history.', String(keys), read);
  }

  private nodes(results: HistoryResults): HistoryNode[] {
    const byKey = new Map<string, HistoryNode & { kind: 'key' }>();
    for (const hit of results.hits) {
      let node = byKey.get(hit.fingerprint);
      if (!node) {
        node = { kind: 'key', fingerprint: hit.fingerprint, masked: hit.masked, service: hit.service, hits: [] };
        byKey.set(hit.fingerprint, node);
      }
      node.hits.push(hit);
    }
    const notes: HistoryNode[] = results.failure
      ? [{ kind: 'note', text: t('Could not read the git history: {0}', results.failure), problem: true }]
      : [];
    return [...notes, ...byKey.values()];
  }

  /** What the view shows, as text (for tests and the log). */
  snapshot(): {
    label: string;
    description: string;
    contextValue: string;
    children: { label: string; description: string; contextValue: string }[];
  }[] {
    const flat = (node: HistoryNode) => {
      const item = this.getTreeItem(node);
      return {
        label: String(item.label ?? ''),
        description: String(item.description ?? ''),
        contextValue: item.contextValue ?? '',
      };
    };
    return this.roots.map((node) => ({ ...flat(node), children: this.getChildren(node).map(flat) }));
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) return this.roots;
    return node.kind === 'key' ? node.hits.map((hit) => ({ kind: 'hit', hit })) : [];
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    if (node.kind === 'note') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.problem ? 'error' : 'info');
      item.contextValue = 'keyward.historyNote';
      return item;
    }
    if (node.kind === 'key') {
      const item = new vscode.TreeItem(node.masked, vscode.TreeItemCollapsibleState.Expanded);
      const commits = new Set(node.hits.map((h) => h.commit)).size;
      item.description = t('{0} key · {1} commit(s)', ownerName(node.service), String(commits));
      item.tooltip = t(
        'A {0} key that was committed. Deleting it from the files does not remove it from history: rotate it at the service.',
        ownerName(node.service),
      );
      item.iconPath = new vscode.ThemeIcon('key');
      item.contextValue = 'keyward.historyKey';
      return item;
    }
    const { hit } = node;
    // A file name is repository content too: shown through the redactor (the subject already was).
    const path = redactSecrets(hit.path);
    const item = new vscode.TreeItem(`${hit.commit.slice(0, 7)} ${hit.subject}`, vscode.TreeItemCollapsibleState.None);
    item.description = `${path}:${hit.line + 1}`;
    item.tooltip = t(
      'Commit {0}\n{1}\nadded {2} at {3}:{4}',
      hit.commit,
      hit.subject,
      hit.masked,
      path,
      String(hit.line + 1),
    );
    item.iconPath = new vscode.ThemeIcon('git-commit');
    item.contextValue = 'keyward.historyCommit';
    item.command = { command: CommandId.historyOpen, title: t('Open'), arguments: [node] };
    return item;
  }

  /** Rotates the key of a key node or of a commit node. */
  async rotate(node?: HistoryNode): Promise<void> {
    const service = node?.kind === 'key' ? node.service : node?.kind === 'hit' ? node.hit.service : undefined;
    if (service && isServiceOwner(service)) await vscode.commands.executeCommand(ROTATE_COMMAND(service));
    // Another provider's key is rotated on that provider's page; Keyward holds no slot for it.
    else if (service && service !== 'team')
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(PROVIDERS[service].keysPage));
  }

  /** Copies the full commit id; returns it. */
  async copyCommit(node?: HistoryNode): Promise<string | undefined> {
    const commit = node?.kind === 'hit' ? node.hit.commit : node?.kind === 'key' ? node.hits[0]?.commit : undefined;
    if (!commit) return undefined;
    try {
      await vscode.env.clipboard.writeText(commit);
      vscode.window.setStatusBarMessage(t('Copied commit {0}', commit.slice(0, 12)), 3000);
    } catch {
      // A browser may refuse the clipboard: show the id to copy by hand.
      void vscode.window.showInformationMessage(t('Commit {0}', commit));
    }
    return commit;
  }

  /** Opens the file at the line where the key was added, if the file is still there. */
  async open(node?: HistoryNode): Promise<void> {
    if (node?.kind !== 'hit') return;
    const { hit } = node;
    try {
      const line = new vscode.Range(hit.line, 0, hit.line, 0);
      await vscode.window.showTextDocument(vscode.Uri.file(join(hit.root, hit.path)), {
        selection: line,
        preview: true,
      });
    } catch {
      void vscode.window.showInformationMessage(
        t(
          '{0} is no longer in the working tree; the key is still in commit {1}. Rotate it.',
          redactSecrets(hit.path),
          hit.commit.slice(0, 12),
        ),
      );
    }
  }
}
