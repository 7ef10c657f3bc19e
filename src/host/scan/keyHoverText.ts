// What the hover over a flagged key says (keyHover.ts shows it): which service, the masked key, where git stands,
// whether it is the stored key, whether it is live, and what to do. esbuild.js (ON_DEMAND) builds this file as
// dist/keyHover.js, loaded on the first hover over a key.
import * as vscode from 'vscode';
import { isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import { redactSecrets } from '../../core/redact.ts';
import { type FileState, describeFinding } from './diagnosticWording.ts';
import type { KeyDiagnostic } from './keyDiagnostics.ts';
import { serviceTitle } from '../serviceNames.ts';
import { verificationText } from './verificationText.ts';
import { TEAM_RULES_FILE } from '../../core/scan/teamRuleProblem.ts';

const t = vscode.l10n.t;

function advice(state: FileState): string {
  switch (state) {
    case 'tracked':
      return t(
        'git tracks this file, so the key is in its history: rotate the key at the service and delete the old one; removing it from the file is not enough.',
      );
    case 'untracked':
      return t(
        "git would commit this file: move the key out (to .env or Keyward's secret storage) before the next commit, or ignore the file.",
      );
    case 'ignored':
      return t('git ignores this file, so it will not be committed; still, keep keys in a secret store when you can.');
    case 'outside':
      return t('this file is not in a git repository.');
    case 'refused':
      return t(
        'git refuses this repository (see `git status` in a terminal: usually safe.directory for a folder another user owns), so whether the file is tracked is unknown: rotate the key if it may have been committed.',
      );
    case 'restricted':
      // No fix that moves a key is offered here: the advice names only what is.
      return t(
        'Restricted Mode: Keyward runs no git here and changes no file, so it cannot tell whether the key was committed. Rotate the key if it may have been, or trust the folder to learn whether git tracks the file and to move the key out.',
      );
    default:
      return t('this document is not saved yet.');
  }
}

/** The hover for a finding, over its range. */
export function keyHover(entry: KeyDiagnostic): vscode.Hover {
  const { finding } = entry;
  const markdown = new vscode.MarkdownString();
  if (finding.service === 'team') {
    // A team rule's id and description are the repository's text: as text, never as Markdown.
    markdown.appendMarkdown('**Keyward** · ');
    markdown.appendText(describeFinding(finding));
    markdown.appendMarkdown(`\n\n- ${t('Team rule')}: `);
    markdown.appendText(`${finding.ruleId} (${TEAM_RULES_FILE})`);
    markdown.appendMarkdown('\n');
  } else {
    markdown.appendMarkdown(`**Keyward** · ${describeFinding(finding)}\n\n`);
    markdown.appendMarkdown(
      `- ${t('Service')}: ${isServiceOwner(finding.service) ? serviceTitle(finding.service) : ownerName(finding.service)}\n`,
    );
  }
  markdown.appendMarkdown(
    `- ${t('Key')}: \`${finding.masked}\` (${t('fingerprint')} ${finding.fingerprint.slice(0, 8)})\n`,
  );
  if (entry.inner !== undefined)
    markdown.appendMarkdown(
      `- ${t('Inside this file')}: \`${redactSecrets(entry.inner).replace(/`/g, "'")}:${finding.line + 1}:${finding.column + 1}\`\n`,
    );
  if (entry.suppression) {
    // The reason is the repository's text: as text, never as Markdown (a link or an image in it stays inert).
    markdown.appendMarkdown(`- ${t('Suppressed')}: `);
    markdown.appendText(
      t('by {0}:{1}: {2}', entry.suppression.file, String(entry.suppression.line), entry.suppression.reason),
    );
    markdown.appendMarkdown('\n');
  }
  markdown.appendMarkdown(`- ${t('Git')}: ${entry.git}\n`);
  markdown.appendMarkdown(
    `- ${t('Stored in Keyward')}: ${finding.stored === 'active' ? t('yes, this is your key') : finding.stored === 'retired' ? t('it was, before a rotation') : t('no')}\n`,
  );
  markdown.appendMarkdown(
    `- ${t('Live')}: ${entry.verification ? verificationText(entry.verification) : isServiceOwner(finding.service) ? t('not checked (the "Check whether this key is live" action asks its service)') : t('not checked (Keyward sends no key to another provider)')}\n\n`,
  );
  if (entry.verification?.status === 'live' && entry.git === 'tracked')
    markdown.appendMarkdown(`**${t('Live key in git history: rotate now.')}** `);
  markdown.appendMarkdown(t('What to do: {0}', advice(entry.git)));
  return new vscode.Hover(markdown, entry.range);
}
