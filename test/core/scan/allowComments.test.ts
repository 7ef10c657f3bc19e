// The allow comments of other scanners, each honoured and none over-honoured.
// Cases follow the peers' own suites: secretlint's
// packages/@secretlint/secretlint-rule-filter-comments/test (snapshots ok.secretlint-disable-target-id,
// ng.secretlint-disable-line, ok.ignore-in-markdown; parseComment.test.ts) and detect-secrets'
// tests/filters/allowlist_filter_test.py (every comment syntax, "pragma: allowlist secret", with
// detect_secrets/filters/allowlist.py for the syntaxes it names) and gitleaks' detect/detect_test.go
// ("valid allow comment", "invalid allow comment").
import { describe, expect, it } from 'vitest';
import { secretlintRules } from '../../../src/core/scan/allowComments.ts';
import { IncrementalScan } from '../../../src/core/scan/incremental.ts';
import { optionsFor, scanText } from '../../../src/core/scan/scanner.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const lines = (text: string) => scanText(text).map((f) => f.line);

// detect-secrets' EXAMPLE_COMMENT_PARTS, plus the Visual Basic quote its allowlist.py names.
const COMMENT_PARTS: [string, string][] = [
  ['#', ''],
  ['# ', ' more text'],
  ['//', ''],
  ['// ', ' more text'],
  ['/*', '*/'],
  ['/* ', ' */'],
  ['--', ''],
  ['-- ', ' more text'],
  ['<!--', '-->'],
  ["'", ''],
];

describe('next-line comments', () => {
  it.each([
    ['keyward', '# keyward-ignore-next-line'],
    ['secretlint', '// secretlint-disable-next-line'],
    ['detect-secrets', '# pragma: allowlist nextline secret'],
    ['detect-secrets, dash spelling', '# pragma: allowlist-nextline-secret'],
  ])('%s: hides the line after it and no other', (_name, marker) => {
    const [a, b] = [routerKey(), routerKey()];
    expect(lines(`${marker}\nKEY=${a}\nOTHER=${b}\n`)).toEqual([2]);
    // Not the line it stands on.
    expect(lines(`KEY=${a} ${marker}\n`)).toEqual([0]);
  });

  it.each(COMMENT_PARTS)(
    'pragma: allowlist nextline secret after %j (detect-secrets test_nextline)',
    (prefix, suffix) => {
      const [a, b] = [routerKey(), routerKey()];
      expect(lines(`${prefix}pragma: allowlist nextline secret${suffix}\nKEY=${a}\nOTHER=${b}\n`)).toEqual([2]);
    },
  );

  it('pragma: allowlist nextline secret is not honoured after other text or in the legacy spelling', () => {
    const [a, b] = [routerKey(), routerKey()];
    // detect-secrets allowlist.py: "No text can precede a nextline pragma".
    expect(lines(`foo = 'bar' # pragma: allowlist nextline secret\npass = '${a}'\n`)).toEqual([1]);
    expect(lines(`x = 1 // pragma: allowlist nextline secret\nk = "${a}"\n`)).toEqual([1]);
    // "whitelist" is accepted only on the key's own line.
    expect(lines(`# pragma: whitelist nextline secret\nKEY=${a}\n`)).toEqual([1]);
    // Deliberately unlike detect-secrets (which wants column 0), an indented comment line counts.
    expect(lines(`def f():\n    # pragma: allowlist nextline secret\n    k = "${b}"\n`)).toEqual([]);
  });

  it('secretlint-disable-next-line naming a rule hides only the keys that rule finds', () => {
    const direct = directKey('proj');
    const router = routerKey();
    expect(lines(`// secretlint-disable-next-line @secretlint/secretlint-rule-openai\nk = "${direct}"\n`)).toEqual([]);
    expect(lines(`// secretlint-disable-next-line @secretlint/secretlint-rule-aws\nk = "${direct}"\n`)).toEqual([1]);
    expect(lines(`// secretlint-disable-next-line @secretlint/secretlint-rule-openai\nk = "${router}"\n`)).toEqual([1]);
  });
});

describe('same-line comments', () => {
  it('secretlint-disable-line: bare hides its line only (ng.secretlint-disable-line)', () => {
    const [a, b] = [directKey('proj'), directKey('proj')];
    expect(lines(`${a} // secretlint-disable-line\n${b}\n`)).toEqual([1]);
  });

  it('secretlint-disable-line <rule>: an AWS rule does not hide a direct key, the OpenAI rule does (ok.secretlint-disable-target-id)', () => {
    const key = directKey('proj');
    expect(lines(`k = "${key}" // secretlint-disable-line @secretlint/secretlint-rule-aws -- ignore aws\n`)).toEqual([
      0,
    ]);
    expect(lines(`k = "${key}" // secretlint-disable-line @secretlint/secretlint-rule-openai -- test value\n`)).toEqual(
      [],
    );
    expect(
      lines(
        `k = "${key}" // secretlint-disable-line @secretlint/secretlint-rule-aws, @secretlint/secretlint-rule-openai\n`,
      ),
    ).toEqual([]);
    // The preset that includes the OpenAI rule covers it; no secretlint rule of a preset covers router keys.
    expect(lines(`k = "${key}" # secretlint-disable-line @secretlint/secretlint-rule-preset-recommend\n`)).toEqual([]);
    expect(
      lines(`k = "${routerKey()}" # secretlint-disable-line @secretlint/secretlint-rule-preset-recommend\n`),
    ).toEqual([0]);
  });

  it.each(COMMENT_PARTS)('pragma: allowlist secret after %j (detect-secrets test_basic)', (prefix, suffix) => {
    const key = routerKey();
    expect(lines(`${key}  ${prefix}pragma: allowlist secret${suffix}\n`)).toEqual([]);
    // test_backwards_compatibility: the older spelling.
    expect(lines(`${key}  ${prefix}pragma: whitelist secret${suffix}\n`)).toEqual([]);
    expect(lines(`${key}  ${prefix}pragma: allowlist secret${suffix}\r\n`)).toEqual([]);
  });

  it('a pragma in no comment is not honoured (detect-secrets needs a comment start before it)', () => {
    const key = routerKey();
    expect(lines(`k = "${key} pragma: allowlist secret"\n`)).toEqual([0]);
    expect(lines(`k = "${key}" + "pragma: allowlist secret"\n`)).toEqual([0]);
    // A block comment that does not end the line is no allowlist comment there either.
    expect(lines(`k = "${key}"; /* pragma: allowlist secret */ k2 = k\n`)).toEqual([0]);
    // Nor after a comment start detect-secrets does not name (allowlist.py: #, //, /* */, ', --, <!-- -->).
    expect(lines(`k = ${key} ; pragma: allowlist secret\n`)).toEqual([0]);
  });

  it('in YAML only a "#" comment carries the pragma (detect-secrets allowlist.py picks the syntax by file name)', () => {
    const key = routerKey();
    const yamlLines = (text: string) => scanText(text, optionsFor('config/app.yaml', {})).map((f) => f.line);
    expect(yamlLines(`token: ${key} # pragma: allowlist secret\n`)).toEqual([]);
    expect(yamlLines(`# pragma: allowlist nextline secret\ntoken: ${key}\n`)).toEqual([]);
    // In YAML "//" and "--" start no comment: the pragma is part of the value, and the key is reported.
    expect(yamlLines(`token: ${key} // pragma: allowlist secret\n`)).toEqual([0]);
    expect(yamlLines(`token: ${key} -- pragma: allowlist secret\n`)).toEqual([0]);
    expect(yamlLines(`// pragma: allowlist nextline secret\ntoken: ${key}\n`)).toEqual([1]);
    // The same lines in a script honour it, and other markers are honoured in YAML as anywhere.
    expect(lines(`token = ${key} // pragma: allowlist secret\n`)).toEqual([]);
    expect(yamlLines(`token: ${key} # keyward-ignore\n`)).toEqual([]);
    expect(optionsFor('ci.YML', {})).toMatchObject({ yaml: true });
    expect(optionsFor('yaml.js', {})).toEqual({});
  });

  it('the pragma is not honoured misspelt or on another line', () => {
    const key = routerKey();
    expect(lines(`${key} # pragma: allowlist\n`)).toEqual([0]);
    expect(lines(`${key} # pragma: blocklist secret\n`)).toEqual([0]);
    expect(lines(`# pragma: allowlist secret\n${key}\n`)).toEqual([1]);
  });

  it('keyward-ignore-next-line on the key line does not hide that line', () => {
    expect(lines(`KEY=${routerKey()} # keyward-ignore-next-line\n`)).toEqual([0]);
    expect(lines(`KEY=${routerKey()} # keyward-ignore\n`)).toEqual([]);
  });
});

describe('gitleaks:allow (gitleaks detect/detect_test.go)', () => {
  it('hides the key on its own line, wherever the marker stands on it', () => {
    const [a, b] = [directKey('proj'), routerKey()];
    expect(lines(`awsToken := "${a}" // gitleaks:allow\nother := "${b}"\n`)).toEqual([1]);
    // gitleaks matches the line's text (strings.Contains), comment or not: so does Keyward.
    expect(lines(`k = "${a} gitleaks:allow"\n`)).toEqual([]);
  });

  it('invalid allow comment: the marker on another line hides nothing', () => {
    const key = directKey('proj');
    expect(lines(`awsToken := "${key}"\n\n    // gitleaks:allow\n`)).toEqual([0]);
    expect(lines(`// gitleaks:allow\nawsToken := "${key}"\n`)).toEqual([1]);
  });
});

describe('secretlint (packages/@secretlint/secretlint-rule-filter-comments/test/snapshots)', () => {
  it('ok.all-ignored: every comment with a "-- reason" still hides', () => {
    const keys = [routerKey(), directKey('proj'), routerKey(), directKey('proj'), routerKey()];
    const text = [
      '// secretlint-disable -- comment',
      '',
      `A ${keys[0]}`,
      `B ${keys[1]}`,
      '',
      '// secretlint-enable -- comment',
      '',
      '// secretlint-disable-next-line -- comment',
      `D ${keys[2]}`,
      `E ${keys[3]} // secretlint-disable-line -- comment`,
      `F ${keys[4]} // secretlint-disable-line --comment`,
    ].join('\n');
    expect(lines(text)).toEqual([]);
  });

  it('an enable naming one of the rules a disable named leaves the others disabled (CommentState)', () => {
    const [a, b] = [directKey('proj'), directKey('proj')];
    const rules = '@secretlint/secretlint-rule-openai, @secretlint/secretlint-rule-aws';
    expect(
      lines(`// secretlint-disable ${rules}\n// secretlint-enable @secretlint/secretlint-rule-aws\n${a}\n`),
    ).toEqual([]);
    expect(
      lines(`// secretlint-disable ${rules}\n// secretlint-enable @secretlint/secretlint-rule-openai\n${b}\n`),
    ).toEqual([2]);
  });

  it('a bare enable closes only the latest open disable (CommentState.enableReporting)', () => {
    const [a, b] = [routerKey(), routerKey()];
    const text = ['// secretlint-disable', '// secretlint-disable', `a ${a}`, '// secretlint-enable', `b ${b}`].join(
      '\n',
    );
    expect(lines(text)).toEqual([]);
    expect(lines(`${text}\n// secretlint-enable\nc ${routerKey()}\n`)).toEqual([6]);
  });
});

describe('disable … enable blocks', () => {
  it.each([
    ['keyward', '// keyward-disable', '// keyward-enable'],
    ['secretlint', '// secretlint-disable', '// secretlint-enable'],
    ['secretlint in Markdown', '<!-- secretlint-disable -->', '<!-- secretlint-enable -->'],
    ['keyward in HTML', '<!-- keyward-disable -->', '<!-- keyward-enable -->'],
  ])('%s: hides the lines between and none after', (_name, open, close) => {
    const keys = [routerKey(), directKey('proj'), routerKey(), routerKey()];
    const text = [`a=${keys[0]}`, open, `b=${keys[1]}`, '', `c=${keys[2]}`, close, `d=${keys[3]}`].join('\n');
    expect(lines(text)).toEqual([0, 6]);
  });

  it('a block never closed runs to the end of the file', () => {
    expect(lines(`<!-- secretlint-disable -->\n${routerKey()}\n\n${directKey('legacy')}\n`)).toEqual([]);
  });

  it('a secretlint block naming rules hides only what they find (ok.secretlint-disable-target-id)', () => {
    const direct = directKey('proj');
    const router = routerKey();
    const text = [
      '// secretlint-disable @secretlint/secretlint-rule-openai',
      `a = "${direct}"`,
      `b = "${router}"`,
      '// secretlint-enable @secretlint/secretlint-rule-openai',
      `c = "${direct}"`,
    ].join('\n');
    expect(lines(text)).toEqual([2, 4]);
    expect(lines(text.replace(/openai/g, 'aws'))).toEqual([1, 2, 4]);
  });

  it('the words inside other text are not a block: secretlint-disable-line and keyward-disabled are no block', () => {
    const key = routerKey();
    expect(lines(`x // secretlint-disable-line\n${key}\n`)).toEqual([1]);
    expect(lines(`// keyward-disabled-feature\n${key}\n`)).toEqual([1]);
  });

  it('the incremental scan follows a block opened, closed and removed far above a key', () => {
    const key = routerKey();
    const scan = new IncrementalScan();
    let doc = ['a', 'b', 'c', `KEY=${key}`];
    scan.reset(doc.join('\n'));
    expect(scan.findings.map((f) => f.line)).toEqual([3]);
    doc = ['// keyward-disable', 'b', 'c', `KEY=${key}`];
    scan.applyEdit({ startLine: 0, oldEndLine: 0, newEndLine: 0 }, (i) => doc[i]);
    expect(scan.findings).toEqual([]);
    doc = ['// keyward-disable', '// keyward-enable', 'c', `KEY=${key}`];
    scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => doc[i]);
    expect(scan.findings.map((f) => f.line)).toEqual([3]);
    doc = ['// keyward-disable', 'b', 'c', `KEY=${key}`];
    scan.applyEdit({ startLine: 1, oldEndLine: 1, newEndLine: 1 }, (i) => doc[i]);
    expect(scan.findings).toEqual([]);
    doc = ['a', 'b', 'c', `KEY=${key}`];
    scan.applyEdit({ startLine: 0, oldEndLine: 0, newEndLine: 0 }, (i) => doc[i]);
    expect(scan.findings.map((f) => f.line)).toEqual([3]);
  });
});

describe('secretlintRules (secretlint parseComment.test.ts)', () => {
  it.each([
    ['', []],
    ['secretlint-rule-a', ['secretlint-rule-a']],
    [' a, b,c ', ['a', 'b', 'c']],
    [' -- comment ', []],
    [' a, b -- why', ['a', 'b']],
    [' a,  b,   c ', ['a', 'b', 'c']],
    [' --comment', []],
    [' a, b -->', ['a', 'b']],
    [' a */', ['a']],
  ])('%j gives %j', (options, expected) => {
    expect(secretlintRules(options)).toEqual(expected);
  });
});
