// What is wrong with a team's rules file (teamRules.ts), apart from the reader: the reports and the editor show these
// without loading the TOML reader and the regex checks that only a file with rules needs.

/** The team rules file at a repository's (or workspace folder's) root. */
export const TEAM_RULES_FILE = '.keyward.toml';

/** `error`: the rule is refused and the scan stops; `unsupported`: the config is not applied as written (exit 2
 * unless a key counts); `ignored`: a descriptive field with no effect on findings, named all the same. */
export interface TeamRuleProblem {
  file: string;
  /** 1-based; 0 for the file as a whole. */
  line: number;
  severity: 'error' | 'unsupported' | 'ignored';
  message: string;
}

/** "file:line: message", as an editor and a terminal link it. */
export function teamProblemText(p: TeamRuleProblem): string {
  return `${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}`;
}
