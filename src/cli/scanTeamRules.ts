// `keyward scan`'s team rules: .keyward.toml at the root the ignore file is read from, or the file --config names
// (a gitleaks.toml as it is). A rule that cannot be run stops the scan (exit 2) with every such rule named by file and
// line: a scan without a rule the team wrote would say "clean" when it is not.
import { isAbsolute, relative, sep } from 'node:path';
import type { GitStatusCache } from '../core/scan/gitStatus.ts';
import { repositoryAbove } from '../core/scan/ignoreFile.ts';
import { printablePath } from '../core/scan/report.ts';
import { type TeamRules, hasErrors, teamProblemText } from '../core/scan/teamRules.ts';
import { loadTeamRules } from '../core/scan/teamRulesFile.ts';
import { redactSecrets } from '../core/redact.ts';
import { type CliIo, EXIT } from './io.ts';
import type { ScanRequest } from './scanArgs.ts';

/** The root a scan reads its control files from (.keywardignore, .keyward.toml): the repository's, else `cwd`. */
export async function scanRoot(request: ScanRequest, cwd: string, git: GitStatusCache): Promise<string> {
  return (
    (request.useGit || request.staged || request.history
      ? await git.root(cwd).catch(() => null)
      : repositoryAbove(cwd)) ?? cwd
  );
}

function shownFrom(cwd: string): (path: string) => string {
  return (path) => {
    const rel = relative(cwd, path);
    return (rel.startsWith('..') || isAbsolute(rel) ? path : rel).split(sep).join('/');
  };
}

/** The team rules to run (undefined: none), or the exit code when one of them cannot run (named on stderr). */
export function teamRulesFor(
  request: ScanRequest,
  io: CliIo,
  cwd: string,
  root: string,
): TeamRules | undefined | number {
  const rules = loadTeamRules(root, shownFrom(cwd), request.config);
  if (!hasErrors(rules)) return rules;
  for (const p of rules!.problems)
    if (p.severity === 'error') io.stderr.write(`keyward scan: ${printablePath(redactSecrets(teamProblemText(p)))}\n`);
  io.stderr.write(`keyward scan: team rules in ${printablePath(rules!.file)} refused; nothing was scanned\n`);
  return EXIT.usage;
}
