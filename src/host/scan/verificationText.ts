// How a liveness check's answer reads, in the hover, the diagnostic's message and the check's own notification.
import * as vscode from 'vscode';
import type { Verification } from '../../core/scan/verify.ts';

const t = vscode.l10n.t;

export function verificationText(verification: Verification): string {
  switch (verification.status) {
    case 'live':
      return t('live: the service accepts it ({0})', verification.reason);
    case 'inactive':
      return t('inactive: {0}', verification.reason);
    case 'unknown':
      return t('unknown: {0}', verification.reason);
  }
}
