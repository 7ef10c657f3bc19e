// A file of the workspace that is not open, scanned for the Problems view (Scan Workspace for Keys) as
// `keyward scan` reads it, through the same core functions.
import * as vscode from 'vscode';
import { archiveKind, archiveMagic } from '../../core/scan/formats.ts';
import { type SkipReason, skipMessage } from '../../core/scan/report.ts';
import type { KeyDiagnostics, PlacedFinding } from './keyDiagnostics.ts';
import { shippedFindings } from './shippedFindings.ts';

/**
 * Scans a file that is not open (workspace scan) the way `keyward scan` does:
 * binary files are searched too (a key compiled into a bundle is a real
 * leak), an archive is looked inside and a source map by its original
 * sources, through the same core functions. A file over the size cap is not
 * read, and whatever an archive's limits left unpacked is returned, so the
 * caller can name it instead of calling the workspace clean.
 */
export async function scanUnopenedFile(
  diagnostics: KeyDiagnostics,
  uri: vscode.Uri,
  maxBytes: number,
): Promise<
  | { findings: number; suppressed: number; notScanned: { inner: string; reason: SkipReason; message: string }[] }
  | { skipped: 'too-large'; size: number }
> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > maxBytes) return { skipped: 'too-large', size: stat.size };
  const bytes = Buffer.from(await vscode.workspace.fs.readFile(uri));
  const name = uri.path.split('/').pop() ?? '';
  // By name, and by its first bytes (a zip renamed .bin, a gzip without .gz), as `keyward scan` does.
  const kind = archiveKind(name) ?? archiveMagic(bytes);
  const placed: PlacedFinding[] = [];
  const notScanned: { inner: string; reason: SkipReason; message: string }[] = [];
  if (kind) {
    // The archive walker loads on the first archive (dist/archiveScan.js), its unpackers in turn (dist/archive.js).
    const { scanArchive } = await import('../../core/scan/archive.ts');
    const result = await scanArchive(bytes, kind, await diagnostics.scanOptionsFor(uri), undefined, name);
    for (const hit of result.findings) placed.push({ finding: hit.finding, inner: hit.inner });
    for (const skip of result.skipped)
      notScanned.push({
        inner: skip.inner,
        reason: skip.reason,
        message: skipMessage({ path: skip.inner, ...skip }),
      });
  } else {
    placed.push(...(await shippedFindings(bytes, name, await diagnostics.scanOptionsFor(uri))));
  }
  const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
  // An open document's diagnostics follow its text as it is typed, not the file on disk.
  if (placed.length > 0 && !open) diagnostics.place(uri, placed, await diagnostics.fileState(uri));
  // Suppressed keys are published (as Hints) but do not make the workspace "hold keys".
  const suppressed = placed.filter((p) => diagnostics.suppressionOf(uri, p.finding, p.inner)).length;
  return { findings: placed.length - suppressed, suppressed, notScanned };
}
