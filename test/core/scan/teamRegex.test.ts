// A team rule's regex is Go RE2 syntax (gitleaks compiles rules with Go's regexp: config/config.go
// regexp.MustCompile), run on JavaScript's backtracking engine only after the shapes that backtrack without bound are
// refused by name (teamRegexSafety.ts). These pin the translation where RE2 and JavaScript read a pattern differently,
// each refusal, and the time an accepted pattern takes on text built to make a backtracking engine slow.
import { describe, expect, it } from 'vitest';
import { OPEN_REPEAT } from '../../../src/core/scan/teamRegex.ts';
import { compile } from '../../../src/core/scan/teamRules.ts';

function re(pattern: string): RegExp {
  let refused = '';
  const out = compile(pattern, (m) => (refused = m));
  if (!out) throw new Error(refused);
  return out.regex;
}

function refusal(pattern: string): string {
  let refused = '';
  expect(compile(pattern, (m) => (refused = m))).toBeUndefined();
  return refused;
}

const matches = (pattern: string, text: string) => {
  const regex = re(pattern);
  regex.lastIndex = 0;
  return regex.exec(text)?.[0];
};

describe('RE2 syntax as gitleaks writes it', () => {
  it('(?i) at the start folds case for the rest; (?-i:…) turns it off inside (gitleaks generic-api-key)', () => {
    expect(matches('(?i)token=(?-i:[A]pi)', 'TOKEN=Api')).toBe('TOKEN=Api');
    expect(matches('(?i)token=(?-i:[A]pi)', 'TOKEN=api')).toBeUndefined();
    expect(matches('a(?i)b', 'aB')).toBe('aB');
    expect(matches('a(?i)b', 'AB')).toBeUndefined();
    expect(matches('(?i:x)y', 'XY')).toBeUndefined();
  });

  it('\\A and \\z are the ends of the text; $ without (?m) is its end, with (?m) the end of a line', () => {
    expect(matches('k\\z', 'k\n')).toBeUndefined();
    expect(matches('k\\z', 'xk')).toBe('k');
    expect(matches('\\Ak', 'k')).toBe('k');
    expect(matches('k$', 'k\nx')).toBeUndefined();
    expect(matches('(?m)k$', 'k\nx')).toBe('k');
    expect(matches('(?m)^x', 'k\nx')).toBe('x');
  });

  it('. skips a newline unless (?s); \\s is ASCII without \\v; \\w is ASCII', () => {
    expect(matches('a.b', 'a\nb')).toBeUndefined();
    expect(matches('(?s:a.b)', 'a\nb')).toBe('a\nb');
    expect(matches('a\\sb', 'a\vb')).toBeUndefined();
    expect(matches('a\\sb', 'a\tb')).toBe('a\tb');
    expect(matches('\\w+', 'é')).toBeUndefined();
  });

  it('POSIX classes, \\Q…\\E, \\x{…}, named groups (?P<n>…) numbered in order', () => {
    expect(matches('[[:alpha:]]+[[:digit:]]', 'abc1')).toBe('abc1');
    expect(matches('\\Qa.b\\E', 'axb')).toBeUndefined();
    expect(matches('\\Qa.b\\E', 'a.b')).toBe('a.b');
    expect(matches('\\x{41}\\x42', 'AB')).toBe('AB');
    const regex = re('(?P<user>u+):(?<pass>p+)');
    expect(regex.exec('uu:pp')?.[2]).toBe('pp');
    expect(matches('a{,2}', 'a{,2}')).toBe('a{,2}');
  });

  it('refuses, by name, what RE2 has not or JavaScript would read differently', () => {
    expect(refusal('(a)\\1')).toMatch(/backreference/);
    expect(refusal('a(?=b)')).toMatch(/lookaround/);
    expect(refusal('(?<!a)b')).toMatch(/lookaround/);
    expect(refusal('\\pL+')).toMatch(/Unicode class \\p/);
    expect(refusal('a**')).toMatch(/bad repetition operator/);
    expect(refusal('a{1001}')).toMatch(/invalid repeat count/);
    expect(refusal('(ab')).toMatch(/missing closing \)/);
    expect(refusal('[ab')).toMatch(/missing closing \]/);
    expect(refusal('ab)')).toMatch(/unexpected "\)"/);
  });
});

describe('linear time', () => {
  it('refuses the shapes that backtrack without bound, naming the construct and where it starts', () => {
    expect(refusal('x(a+)+b')).toMatch(/character 2: a repeat inside a repeat/);
    expect(refusal('(?:\\w+\\s?)*=')).toMatch(/repeat inside a repeat/);
    expect(refusal('(a|ab)*c')).toMatch(/alternation whose branches can start with the same character/);
    expect(refusal('(?:a|)+c')).toMatch(/alternation/);
    expect(refusal('\\w+\\d+x')).toMatch(/two repeats side by side/);
    expect(refusal('.*[ \\t]*=')).toMatch(/two repeats side by side/);
  });

  it('accepts bounded and distinct shapes (gitleaks slack-user-token, generic-api-key)', () => {
    expect(re('xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}')).toBeInstanceOf(RegExp);
    expect(re('(?:[a-c]|[d-f])+x')).toBeInstanceOf(RegExp);
    expect(
      re(
        `(?i)[\\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'"\\s=]{0,5}([\\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\\x60'"\\s;]|\\\\[nr]|$)`,
      ),
    ).toBeInstanceOf(RegExp);
  });

  it(`an open repeat takes at most ${OPEN_REPEAT} characters past its minimum, so a failing search stays linear`, () => {
    // On a backtracking engine /[a-z]+x/ over a long run of letters tries every start against the rest of the run:
    // quadratic, about 3e10 steps here. Bounded, it is a few hundred steps per start.
    const regex = re('[a-z]+x');
    const text = 'a'.repeat(1 << 18);
    const started = performance.now();
    regex.lastIndex = 0;
    expect(regex.exec(text)).toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(matches('[a-z]+x', `${'a'.repeat(OPEN_REPEAT + 10)}x`)).toHaveLength(1 + OPEN_REPEAT + 1);
  });

  it('the refused shape is the one that would hang: (a+)+b, 2^n steps for n "a"s', () => {
    // What the refusal prevents, measured on the engine directly with a small input (2^22 steps; 40 would take days).
    const started = performance.now();
    expect(/(a+)+b/.test('a'.repeat(22))).toBe(false);
    const slow = performance.now() - started;
    const bounded = re('a{1,256}b');
    const at = performance.now();
    expect(bounded.test('a'.repeat(22))).toBe(false);
    expect(performance.now() - at).toBeLessThan(slow);
  });
});
