// Where a scan's team rules come from: the file `--config` names, else .keyward.toml at the root the ignore file is
// read from (the repository's, else the folder scanned). Read as every committed control file is
// (committedFile.ts): no link followed, a regular file only, and a bounded one. A file that cannot be read is an
// error the scan stops on, never a scan without the team's rules.
import { join } from 'node:path';
import { readCommittedFile } from './committedFile.ts';
import { TEAM_RULES_FILE } from './teamRuleProblem.ts';
import { type TeamRules, readTeamRules } from './teamRules.ts';

/** gitleaks' own default config is ~100 KB; ten times that is room for any team's. */
export const TEAM_RULES_MAX_BYTES = 1 << 20;

/**
 * The rules of `root`'s .keyward.toml (undefined: there is none), or of `config` when given (then it must exist).
 * `shown` is the file's name as messages print it.
 */
export function loadTeamRules(root: string, shown: (path: string) => string, config?: string): TeamRules | undefined {
  const path = config ?? join(root, TEAM_RULES_FILE);
  const read = readCommittedFile(path, TEAM_RULES_MAX_BYTES);
  const file = shown(path);
  if ('missing' in read && config === undefined) return undefined;
  const problem = 'missing' in read ? 'no such file' : 'problem' in read ? read.problem : undefined;
  if (problem !== undefined)
    return {
      file,
      rules: [],
      problems: [{ file, line: 0, severity: 'error', message: `team rules not read: ${problem}` }],
    };
  return readTeamRules((read as { text: string }).text, file);
}
