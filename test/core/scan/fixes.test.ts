import { describe, expect, it } from 'vitest';
import {
  appendDotenv,
  appendGitignore,
  dotenvAssignments,
  envReplacement,
  ignoreComment,
  ignoreNextLine,
  isDotenvFile,
  planDotenv,
} from '../../../src/core/scan/fixes.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

const KEY = ['sk', 'or', 'v1', 'f'.repeat(8)].join('-');

function replaced(languageId: string, line: string): string | undefined {
  const column = line.indexOf(KEY);
  const r = envReplacement(languageId, line, column, column + KEY.length, 'OPENROUTER_API_KEY');
  return r ? line.slice(0, r.start) + r.text + line.slice(r.end) : undefined;
}

describe('quick-fix text', () => {
  it.each([
    [
      'typescript',
      `const c = new OpenAI({ apiKey: "${KEY}" });`,
      'const c = new OpenAI({ apiKey: process.env.OPENROUTER_API_KEY });',
    ],
    ['javascript', `key: '${KEY}',`, 'key: process.env.OPENROUTER_API_KEY,'],
    ['python', `KEY = "${KEY}"`, 'KEY = os.environ["OPENROUTER_API_KEY"]'],
    ['go', `c := New("${KEY}")`, 'c := New(os.Getenv("OPENROUTER_API_KEY"))'],
    ['java', `String k = "${KEY}";`, 'String k = System.getenv("OPENROUTER_API_KEY");'],
    ['csharp', `var k = @"${KEY}";`, 'var k = Environment.GetEnvironmentVariable("OPENROUTER_API_KEY");'],
    [
      'rust',
      `let k = "${KEY}";`,
      'let k = std::env::var("OPENROUTER_API_KEY").expect("OPENROUTER_API_KEY is not set");',
    ],
    ['shellscript', `curl -H "Authorization: Bearer ${KEY}"`, 'curl -H "Authorization: Bearer ${OPENROUTER_API_KEY}"'],
    ['dockerfile', `ENV KEY=${KEY}`, 'ENV KEY=${OPENROUTER_API_KEY}'],
  ])('%s', (languageId, line, expected) => {
    expect(replaced(languageId, line)).toBe(expected);
  });

  it('offers nothing where the key is not a whole literal or the language cannot read the environment', () => {
    expect(replaced('typescript', `const h = "Bearer ${KEY}";`)).toBeUndefined();
    expect(replaced('json', `{"k": "${KEY}"}`)).toBeUndefined();
  });

  it("writes an ignore comment in the language's syntax, none for JSON", () => {
    expect(ignoreComment('python')).toBe(' # keyward-ignore');
    expect(ignoreComment('typescript')).toBe(' // keyward-ignore');
    expect(ignoreComment('markdown')).toBe(' <!-- keyward-ignore -->');
    expect(ignoreComment('json')).toBeUndefined();
    expect(ignoreComment('css')).toBe(' /* keyward-ignore */');
    expect(ignoreComment('latex')).toBe(' % keyward-ignore');
    expect(ignoreComment('bat')).toBeUndefined();
  });

  it.each(['python', 'typescript', 'markdown', 'css', 'sql', 'vb', 'clojure', 'go'])(
    'the ignore comment it writes for %s is one the scanner honours, on that line only',
    (languageId) => {
      const [a, b] = [routerKey(), routerKey()];
      expect(scanText(`k = "${a}"${ignoreComment(languageId)!}\nk = "${b}"\n`).map((f) => f.line)).toEqual([1]);
      const line = `    KEY=${a}`;
      expect(scanText(`${ignoreNextLine(line)}${line}\nKEY=${b}\n`).map((f) => f.line)).toEqual([2]);
    },
  );

  it('appends to .env and never changes a line that is there', () => {
    expect(appendDotenv('', 'A', '1')).toBe('A=1\n');
    expect(appendDotenv('B=2', 'A', '1')).toBe('B=2\nA=1\n');
    expect(appendDotenv('A=0\nB=2\n', 'A', '1')).toBe('A=0\nB=2\nA=1\n');
  });

  it('reads .env assignments as loaders do: export, quotes, trailing comments, the last one wins', () => {
    const values = dotenvAssignments('# comment\nexport A=1\nB="two words"\nC=\'x\' \nD=plain # note\nA=3\n');
    expect([...values]).toEqual([
      ['A', '3'],
      ['B', 'two words'],
      ['C', 'x'],
      ['D', 'plain'],
    ]);
  });

  it('plans a .env move: add, reuse the same value under any name, never overwrite another value', () => {
    const [key, other] = [routerKey(), routerKey()];
    expect(planDotenv('', 'OPENROUTER_API_KEY', key)).toEqual({ action: 'add', name: 'OPENROUTER_API_KEY' });
    expect(planDotenv(`OPENROUTER_API_KEY=${key}\n`, 'OPENROUTER_API_KEY', key)).toEqual({
      action: 'reuse',
      name: 'OPENROUTER_API_KEY',
    });
    expect(planDotenv(`ROUTER="${key}"\n`, 'OPENROUTER_API_KEY', key)).toEqual({ action: 'reuse', name: 'ROUTER' });
    expect(planDotenv(`OPENROUTER_API_KEY=${other}\nOPENROUTER_API_KEY_2=x\n`, 'OPENROUTER_API_KEY', key)).toEqual({
      action: 'conflict',
      name: 'OPENROUTER_API_KEY',
      existing: other,
      alternative: 'OPENROUTER_API_KEY_3',
    });
    expect(planDotenv('OPENROUTER_API_KEY=\n', 'OPENROUTER_API_KEY', key)).toMatchObject({
      action: 'conflict',
      alternative: 'OPENROUTER_API_KEY_2',
    });
  });

  it('puts the dotenv ignore marker on its own line above the key, which the scanner honours', () => {
    const key = routerKey();
    const line = `  OPENROUTER_API_KEY=${key}`;
    expect(ignoreNextLine(line)).toBe('  # keyward-ignore-next-line\n');
    expect(scanText(`${ignoreNextLine(line)}${line}\n`)).toEqual([]);
  });

  it('adds a .gitignore entry once', () => {
    expect(appendGitignore('node_modules/', '.env')).toBe('node_modules/\n.env\n');
    expect(appendGitignore('.env\n', '.env')).toBe('.env\n');
    expect(appendGitignore('', '/a/b.js')).toBe('/a/b.js\n');
  });

  it('knows dotenv files: .env, .env.*, *.env', () => {
    expect(
      ['.env', 'config/.env.local', 'x/.env.production', 'deploy/production.env', 'my.env'].every(isDotenvFile),
    ).toBe(true);
    expect(['env.ts', '.envrc.js', 'env', 'x/.env/', 'envfile'].some(isDotenvFile)).toBe(false);
  });
});
