// Team rules in gitleaks' [[rules]] format (config/config.go ViperConfig, detect/detect.go detectRule and
// checkFindingAllowed): each supported field changes what a scan finds, each other field is named by line, a bad
// rule names its line, and a fragment of gitleaks' own default config (config/gitleaks.toml) runs as it is.
// Keys are generated here, never written into the repository.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { StreamScan } from '../../../src/core/scan/streamScan.ts';
import { type TeamRules, hasErrors, readTeamRules } from '../../../src/core/scan/teamRules.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function random(length: number, alphabet = ALNUM): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** An internal gateway's token, the shape a team writes a rule for: "acme_gw_" and 32 letters or digits. */
const gatewayToken = () => `acme_gw_${random(32)}`;

function rules(toml: string): TeamRules {
  const read = readTeamRules(toml, '.keyward.toml');
  expect(read.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return read;
}

function found(toml: string, text: string) {
  return scanText(text, { teamRules: rules(toml).rules });
}

const GATEWAY = `[[rules]]
id = "acme-gateway"
description = "ACME gateway token"
regex = '''acme_gw_[A-Za-z0-9]{32}'''
`;

describe('each supported field changes what is found', () => {
  it('id, description and regex: the finding carries the id and description, at the token, masked', () => {
    const token = gatewayToken();
    const text = `const gw = "${token}";\n`;
    expect(scanText(text)).toEqual([]);
    const [f, ...rest] = found(GATEWAY, text);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ ruleId: 'acme-gateway', service: 'team', description: 'ACME gateway token' });
    expect(f).toMatchObject({ line: 0, column: 12, endColumn: 12 + token.length, confidence: 'high' });
    expect(f!.masked).not.toContain(token.slice(8, 30));
  });

  it('secretGroup: the group names the secret; without it the first non-empty group is the secret', () => {
    const secret = random(24);
    const text = `gw_user=ops gw_pass=${secret}\n`;
    const base = `[[rules]]\nid = "gw-login"\nregex = '''gw_user=(\\w+) gw_pass=(\\w{24})'''\n`;
    expect(found(base, text)[0]).toMatchObject({ column: 8, endColumn: 11 });
    expect(found(`${base}secretGroup = 2\n`, text)[0]).toMatchObject({ column: 20, endColumn: 44 });
  });

  it('keywords: a text holding none of them is not searched; they match whatever the case', () => {
    const token = gatewayToken();
    expect(found(`${GATEWAY}keywords = ["acme_gw_"]\n`, `x = "${token}"`)).toHaveLength(1);
    expect(found(`${GATEWAY}keywords = ["ACME_GW"]\n`, `x = "${token}"`)).toHaveLength(1);
    expect(found(`${GATEWAY}keywords = ["internal-gateway"]\n`, `x = "${token}"`)).toEqual([]);
  });

  it('entropy: a secret at or under it is not reported', () => {
    const plain = `acme_gw_${'ab'.repeat(16)}`;
    expect(found(GATEWAY, plain)).toHaveLength(1);
    expect(found(`${GATEWAY}entropy = 3.5\n`, plain)).toEqual([]);
    expect(found(`${GATEWAY}entropy = 3.5\n`, gatewayToken())).toHaveLength(1);
  });

  it('allowlists: regexes against the secret, the match or the line; stopwords; condition "and"', () => {
    const token = gatewayToken();
    const text = `token: ${token} # rotated-2024\n`;
    const allow = (body: string) => found(`${GATEWAY}[[rules.allowlists]]\n${body}\n`, text);
    expect(allow(`regexes = ['''^acme_gw_${token.slice(8, 12)}''']`)).toEqual([]);
    expect(allow(`regexes = ['''rotated''']`)).toHaveLength(1);
    expect(allow(`regexTarget = "line"\nregexes = ['''rotated-\\d{4}''']`)).toEqual([]);
    expect(allow(`regexTarget = "match"\nregexes = ['''^acme''']`)).toEqual([]);
    expect(allow(`stopwords = ["${token.slice(10, 16).toUpperCase()}"]`)).toEqual([]);
    expect(
      allow(`condition = "AND"\nstopwords = ["${token.slice(10, 16)}"]\nregexes = ['''^nomatch$''']`),
    ).toHaveLength(1);
    expect(allow(`condition = "and"\nstopwords = ["${token.slice(10, 16)}"]\nregexes = ['''^acme''']`)).toEqual([]);
    // gitleaks' older single table, and the same written as a list, are read too.
    expect(found(`${GATEWAY}[rules.allowlist]\nregexes = ['''^acme''']\n`, text)).toEqual([]);
    expect(found(`${GATEWAY}[[rules.allowlist]]\nregexes = ['''^acme''']\n`, text)).toEqual([]);
  });

  it("a span Keyward's own rules report is reported once, by Keyward's rule", () => {
    const key = routerKey();
    const own = `[[rules]]\nid = "any-sk"\nregex = '''sk-[a-z0-9-]{60,80}'''\n`;
    expect(found(own, `k = "${key}"`).map((f) => f.ruleId)).toEqual(['router-key']);
  });

  it('a file read in windows finds each team token once, as one pass over the whole text does', () => {
    const window = 16 << 10;
    // Tokens placed across the seams of the windows, each on a line of its own among long lines of filler.
    const text = Array.from(
      { length: 12 },
      (_, i) => `${'z'.repeat(window / 2 - 20 + i * 7)}\ngw = ${gatewayToken()}\n`,
    ).join('');
    const teamRules = rules(`${GATEWAY}keywords = ["acme_gw_"]\n`).rules;
    const stream = new StreamScan({ teamRules }, window);
    stream.push(Buffer.from(text));
    const streamed = stream.end();
    expect(streamed).toHaveLength(12);
    expect(streamed).toEqual(scanText(text, { teamRules }));
  });

  it('field names are read whatever their case, as gitleaks (viper) reads them', () => {
    const text = `gw_user=ops gw_pass=${random(24)}\n`;
    const toml = `[[rules]]\nID = "gw"\nRegex = '''gw_user=(\\w+) gw_pass=(\\w{24})'''\nSecretGroup = 2\n`;
    expect(found(toml, text)[0]).toMatchObject({ ruleId: 'gw', column: 20 });
  });
});

describe('what is not supported is named, with its line', () => {
  it('a rule field that changes what is found: unsupported; one that only describes: ignored', () => {
    const read = readTeamRules(
      `title = "ours"\n[extend]\nuseDefault = true\n\n[[rules]]\nid = "gw"\nregex = '''acme_gw_\\w{32}'''\npath = '''\\.env$'''\ntags = ["internal"]\nskipReport = true\n[[rules.allowlists]]\npaths = ['''^test/''']\ncommits = ["abc"]\nregexes = ['''^x$''']\n\n[[allowlists]]\nregexes = ['''y''']\n`,
      'gitleaks.toml',
    );
    expect(hasErrors(read)).toBe(false);
    expect(read.rules.map((r) => r.id)).toEqual(['gw']);
    expect(read.problems.map((p) => [p.line, p.severity, p.message])).toEqual([
      [1, 'ignored', '"title" is not supported (it describes the config and changes no finding)'],
      [2, 'unsupported', expect.stringMatching(/^"extend" is not supported: Keyward does not load other configs/)],
      [16, 'unsupported', expect.stringMatching(/^"allowlists" is not supported: global allowlists are not applied/)],
      [8, 'unsupported', 'rule "gw": "path" is not supported; the rule runs without it'],
      [9, 'ignored', 'rule "gw": "tags" is not supported (it changes no finding)'],
      [10, 'unsupported', 'rule "gw": "skipReport" is not supported; the rule runs without it'],
      [12, 'unsupported', 'rule "gw", allowlist 1: "paths" is not supported; this allowlist allows nothing by it'],
      [13, 'unsupported', 'rule "gw", allowlist 1: "commits" is not supported; this allowlist allows nothing by it'],
    ]);
  });
});

describe('a bad rule names its file and line, and is refused', () => {
  const problems = (toml: string) =>
    readTeamRules(toml, '.keyward.toml')
      .problems.filter((p) => p.severity === 'error')
      .map((p) => [p.line, p.message]);

  it('no id, no regex, an invalid regex, a backtracking regex, a group it lacks, a wrong type, a reused id', () => {
    expect(
      problems(
        `[[rules]]\nregex = '''a'''\n\n[[rules]]\nid = "no-regex"\n\n[[rules]]\nid = "bad"\nregex = '''(a'''\n\n[[rules]]\nid = "slow"\ndescription = "x"\nregex = '''(a+)+b'''\n\n[[rules]]\nid = "group"\nregex = '''a(b)'''\nsecretGroup = 2\n\n[[rules]]\nid = "kw"\nregex = '''a'''\nkeywords = "a"\n\n[[rules]]\nid = "router-key"\nregex = '''a'''\n\n[[rules]]\nid = "kw"\nregex = '''b'''\n`,
      ),
    ).toEqual([
      [1, 'rule 1: has no id'],
      [4, 'rule "no-regex": has no regex (a rule of path alone is not supported)'],
      [9, 'rule "bad": regex refused at character 1: missing closing )'],
      [
        14,
        'rule "slow": regex refused at character 1: a repeat inside a repeat (as in (a+)+) can backtrack exponentially; write the inner part with a fixed count or drop the outer repeat',
      ],
      [19, 'rule "group": secretGroup 2 names a group the regex does not have (it has 1)'],
      [24, 'rule "kw": "keywords" must be a list of strings'],
      [27, `rule "router-key": "router-key" is one of Keyward's own rule ids; choose another`],
    ]);
  });

  it('TOML that does not parse names its line', () => {
    expect(problems(`[[rules]]\nid = "a"\nregex = '''x\n`)[0]?.[0]).toBe(3);
    expect(problems(`[[rules]]\nid = "a"\nregex = '''x'''\nid = "b"\n`)).toEqual([
      [4, expect.stringMatching(/^not valid TOML: .*/)],
    ]);
  });

  it('a rule defined twice is named at the second', () => {
    expect(problems(`${GATEWAY}\n${GATEWAY}`)).toEqual([[6, 'rule "acme-gateway" is defined twice (first at line 1)']]);
  });
});

// Verbatim from gitleaks' default config (config/gitleaks.toml at commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b,
// generated by cmd/generate/config): three rules with (?i), \b, secretGroup, entropy and keywords.
const GITLEAKS_FRAGMENT = `
[[rules]]
id = "gitlab-pat-routable"
description = "Identified a GitLab Personal Access Token (routable), risking unauthorized access to GitLab repositories and codebase exposure."
regex = '''\\bglpat-[0-9a-zA-Z_-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b'''
entropy = 4
keywords = ["glpat-"]

[[rules]]
id = "sonar-api-token"
description = "Uncovered a Sonar API token, potentially compromising software vulnerability scanning and code security."
regex = '''(?i)[\\w.-]{0,50}?(?:sonar[_.-]?(login|token))(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'"\\s=]{0,5}((?:squ_|sqp_|sqa_)?[a-z0-9=_\\-]{40})(?:[\\x60'"\\s;]|\\\\[nr]|$)'''
secretGroup = 2
keywords = ["sonar"]

[[rules]]
id = "snyk-api-token"
description = "Uncovered a Snyk API token, potentially compromising software vulnerability scanning and code security."
regex = '''(?i)[\\w.-]{0,50}?(?:snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token))(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'"\\s;]|\\\\[nr]|$)'''
keywords = ["snyk"]
`;

describe("gitleaks' own rules run unchanged", () => {
  it('the fragment reads with no problem and finds each of its keys, at the secret', () => {
    const read = readTeamRules(GITLEAKS_FRAGMENT, 'gitleaks.toml');
    expect(read.problems).toEqual([]);
    const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const gitlab = `glpat-${random(30)}.${random(2, lower)}${random(7, lower)}`;
    const sonar = `squ_${random(40, lower)}`;
    const hex = (n: number) => random(n, '0123456789abcdef');
    const snyk = `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
    const text = `GITLAB=${gitlab}\nSONAR_TOKEN="${sonar}"\nsnyk_token: ${snyk}\n`;
    const findings = scanText(text, { teamRules: read.rules });
    expect(findings.map((f) => [f.ruleId, f.line, f.column, f.endColumn])).toEqual([
      ['gitlab-pat-routable', 0, 7, 7 + gitlab.length],
      ['sonar-api-token', 1, 13, 13 + sonar.length],
      ['snyk-api-token', 2, 12, 12 + snyk.length],
    ]);
    // Entropy 4 refuses a regular body, as gitleaks does.
    expect(scanText(`GITLAB=glpat-${'ab'.repeat(15)}.aa${'b'.repeat(7)}\n`, { teamRules: read.rules })).toEqual([]);
  });
});
