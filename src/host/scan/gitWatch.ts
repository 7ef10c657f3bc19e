// When what git says of a file may have changed: .gitignore, the index or HEAD changed on disk, or the built-in git
// extension saw a commit or staging (sooner than the file watcher). Only in a trusted workspace does it ask the git
// extension, and from the moment trust is granted.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';

interface GitRepository {
  state: { onDidChange: vscode.Event<void> };
}

interface GitApi {
  repositories: GitRepository[];
  onDidOpenRepository: vscode.Event<GitRepository>;
}

export class GitWatch extends Disposable {
  private readonly changed: () => void;
  private watchingExtension = false;

  constructor(changed: () => void) {
    super();
    this.changed = changed;
    for (const pattern of ['**/.gitignore', '**/.git/index', '**/.git/HEAD']) {
      const watcher = this._register(vscode.workspace.createFileSystemWatcher(pattern));
      this._register(watcher.onDidChange(changed));
      this._register(watcher.onDidCreate(changed));
      this._register(watcher.onDidDelete(changed));
    }
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.watchExtension()));
    this.watchExtension();
  }

  private watchExtension(): void {
    if (!vscode.workspace.isTrusted || this.watchingExtension) return;
    const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    if (!git) return;
    this.watchingExtension = true;
    void Promise.resolve(git.isActive ? git.exports : git.activate()).then(
      (exports) => {
        const api = exports?.getAPI(1);
        if (!api) return;
        const watch = (repo: GitRepository) => this._register(repo.state.onDidChange(() => this.changed()));
        api.repositories.forEach(watch);
        this._register(api.onDidOpenRepository(watch));
      },
      () => undefined,
    );
  }
}
