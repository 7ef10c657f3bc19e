// The allow comments of other scanners, each honoured and none over-honoured.
// Cases follow the peers' own suites: secretlint's
// packages/@secretlint/secretlint-rule-filter-comments/test (snapshots ok.secretlint-disable-target-id,
// ng.secretlint-disable-line, ok.ignore-in-markdown; parseComment.test.ts) and detect-secrets'
// tests/filters/allowlist_filter_test.py (every comment syntax, "pragma: allowlist secret").
import { describe, expect, it } from 'vitest';
import { secretlintRules } from '../../src/core/scan/allowComments.ts';
import { IncrementalScan } from '../../src/core/scan/incremental.ts';
import { scanText } from '../../src/core/scan/scanner.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';

const lines = (text: string) => scanText(text).map((f) => f.line);

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

  it.each([
    ['#', ''],
    ['# ', ' more text'],
    ['//', ''],
    ['// ', ' more text'],
    ['/*', '*/'],
    ['/* ', ' */'],
    ['--', ''],
    ['-- ', ' more text'],
    ['<!--', '-->'],
  ])('pragma: allowlist secret after %j (detect-secrets test_basic)', (prefix, suffix) => {
    const key = routerKey();
    expect(lines(`${key}  ${prefix}pragma: allowlist secret${suffix}\n`)).toEqual([]);
    expect(lines(`${key}  ${prefix}pragma: whitelist secret${suffix}\n`)).toEqual([]);
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
    [' a, b -->', ['a', 'b']],
    [' a */', ['a']],
  ])('%j gives %j', (options, expected) => {
    expect(secretlintRules(options)).toEqual(expected);
  });
});
