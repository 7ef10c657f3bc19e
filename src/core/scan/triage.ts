// Sorts a scan's findings into what counts and what is set aside: first what the ignore file
// suppresses, then, with a baseline, what it already held. Nothing is dropped: the set-aside
// findings are reported as such (report.ts), only the exit status ignores them.
import { type BaselineEntry, BaselineIndex } from './baseline.ts';
import { type IgnoreRules, suppressionFor } from './ignoreFile.ts';
import type { FileFinding } from './report.ts';

export interface Triaged {
  /** New (or no baseline) and not suppressed: these set the exit status. */
  counted: FileFinding[];
  suppressed: FileFinding[];
  unchanged: FileFinding[];
}

export interface TriageOptions {
  ignore?: IgnoreRules;
  baseline?: BaselineIndex;
  /** The finding's path as the baseline and the ignore file name it: '/'-separated, from the root. */
  pathOf: (shown: string) => string;
}

export function triageFindings(findings: readonly FileFinding[], options: TriageOptions): Triaged {
  const out: Triaged = { counted: [], suppressed: [], unchanged: [] };
  // Named from the root only for a file that asks it: pathOf runs path.resolve and path.relative, ~20 µs a
  // finding in code still cold.
  const named = options.ignore !== undefined || options.baseline !== undefined;
  for (const f of findings) {
    const path = named ? options.pathOf(f.path) : '';
    const suppression = options.ignore && suppressionFor(options.ignore, path, f.finding.fingerprint);
    const state = options.baseline
      ? options.baseline.has(path, f.finding.fingerprint)
        ? 'unchanged'
        : 'new'
      : undefined;
    const placed: FileFinding = {
      ...f,
      ...(suppression ? { suppression } : {}),
      ...(state ? { baselineState: state } : {}),
    };
    if (suppression) out.suppressed.push(placed);
    else if (state === 'unchanged') out.unchanged.push(placed);
    else out.counted.push(placed);
  }
  return out;
}

/** The baseline entries for what a scan found: every finding, suppressed ones too. */
export function baselineEntries(findings: readonly FileFinding[], pathOf: (shown: string) => string): BaselineEntry[] {
  return findings.map((f) => ({
    path: pathOf(f.path),
    fingerprint: f.finding.fingerprint,
    ruleId: f.finding.ruleId,
    masked: f.finding.masked,
  }));
}
