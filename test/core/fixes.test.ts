import { describe, expect, it } from 'vitest';
import { appendGitignore, envReplacement, ignoreComment, isDotenvFile, upsertDotenv } from '../../src/core/scan/fixes.ts';

const KEY = ['sk', 'or', 'v1', 'f'.repeat(8)].join('-');

function replaced(languageId: string, line: string): string | undefined {
  const column = line.indexOf(KEY);
  const r = envReplacement(languageId, line, column, column + KEY.length, 'OPENROUTER_API_KEY');
  return r ? line.slice(0, r.start) + r.text + line.slice(r.end) : undefined;
}

describe('quick-fix text', () => {
  it.each([
    ['typescript', `const c = new OpenAI({ apiKey: "${KEY}" });`, 'const c = new OpenAI({ apiKey: process.env.OPENROUTER_API_KEY });'],
    ['javascript', `key: '${KEY}',`, 'key: process.env.OPENROUTER_API_KEY,'],
    ['python', `KEY = "${KEY}"`, 'KEY = os.environ["OPENROUTER_API_KEY"]'],
    ['go', `c := New("${KEY}")`, 'c := New(os.Getenv("OPENROUTER_API_KEY"))'],
    ['java', `String k = "${KEY}";`, 'String k = System.getenv("OPENROUTER_API_KEY");'],
    ['csharp', `var k = @"${KEY}";`, 'var k = Environment.GetEnvironmentVariable("OPENROUTER_API_KEY");'],
    ['rust', `let k = "${KEY}";`, 'let k = std::env::var("OPENROUTER_API_KEY").expect("OPENROUTER_API_KEY is not set");'],
    ['shellscript', `curl -H "Authorization: Bearer ${KEY}"`, 'curl -H "Authorization: Bearer ${OPENROUTER_API_KEY}"'],
    ['dockerfile', `ENV KEY=${KEY}`, 'ENV KEY=${OPENROUTER_API_KEY}'],
  ])('%s', (languageId, line, expected) => {
    expect(replaced(languageId, line)).toBe(expected);
  });

  it('offers nothing where the key is not a whole literal or the language cannot read the environment', () => {
    expect(replaced('typescript', `const h = "Bearer ${KEY}";`)).toBeUndefined();
    expect(replaced('json', `{"k": "${KEY}"}`)).toBeUndefined();
  });

  it('writes an ignore comment in the language\'s syntax, none for JSON', () => {
    expect(ignoreComment('python')).toBe(' # keyward-ignore');
    expect(ignoreComment('typescript')).toBe(' // keyward-ignore');
    expect(ignoreComment('markdown')).toBe(' <!-- keyward-ignore -->');
    expect(ignoreComment('json')).toBeUndefined();
  });

  it('sets a .env variable, replacing an old assignment', () => {
    expect(upsertDotenv('', 'A', '1')).toBe('A=1\n');
    expect(upsertDotenv('B=2', 'A', '1')).toBe('B=2\nA=1\n');
    expect(upsertDotenv('A=0\nB=2\n', 'A', '1')).toBe('A=1\nB=2\n');
    expect(upsertDotenv('export A=0\n', 'A', '1')).toBe('A=1\n');
  });

  it('adds a .gitignore entry once', () => {
    expect(appendGitignore('node_modules/', '.env')).toBe('node_modules/\n.env\n');
    expect(appendGitignore('.env\n', '.env')).toBe('.env\n');
    expect(appendGitignore('', '/a/b.js')).toBe('/a/b.js\n');
  });

  it('knows .env files', () => {
    expect(['.env', 'config/.env.local', 'x/.env.production'].every(isDotenvFile)).toBe(true);
    expect(['env.ts', '.envrc.js', 'my.env'].some(isDotenvFile)).toBe(false);
  });
});
