// The words a key's diagnostic ends with about .keywardignore and allow comments: where it is suppressed, or, for the
// key stored in Keyward, that neither applies. A repository's files are the repository's word; the person's own key
// is theirs, so nothing a file says quiets it.
import * as vscode from 'vscode';
import type { Suppression } from '../../core/scan/ignoreFile.ts';
import type { Finding } from '../../core/scan/scanner.ts';

const t = vscode.l10n.t;

/**
 * What a finding's message adds about the ignore file and allow comments: where it is suppressed, or, for the key
 * stored in Keyward, that neither applies (a repository's file never quiets the person's own key).
 */
export function triageNote(finding: Finding, ignoreSays: Suppression | undefined): string {
  const own = finding.stored === 'active';
  const notes: string[] = [];
  if (ignoreSays && own)
    notes.push(
      t(
        "{0}:{1} would suppress it, but a repository's file never suppresses the key stored in Keyward.",
        ignoreSays.file,
        String(ignoreSays.line),
      ),
    );
  else if (ignoreSays)
    notes.push(t('Suppressed by {0}:{1}: {2}', ignoreSays.file, String(ignoreSays.line), ignoreSays.reason));
  if (finding.allowRefused) notes.push(t('An allow comment does not hide the key stored in Keyward.'));
  return notes.map((note) => ` ${note}`).join('');
}
