// The labelled corpus, built in code: generated keys planted in the contexts
// real files have, and the hard negatives. No key string is ever committed.
import { PROVIDER_KEY_RULES, directKey, providerKey, routerKey } from '../emulator/keyFactory.ts';

export interface Case {
  name: string;
  text: string;
  /** The planted keys, in order of appearance; empty for a negative. */
  keys: string[];
}

const J = (...parts: string[]) => parts.join('');

export function positiveCases(): Case[] {
  const r = routerKey;
  const cases: [string, (k: string) => string][] = [
    ['TypeScript string', (k) => `const client = new OpenAI({ apiKey: "${k}" });\n`],
    ['JavaScript single quotes', (k) => `module.exports = { key: '${k}' };\n`],
    ['template literal', (k) => 'const h = `Bearer ' + k + '`;\n'],
    ['Python', (k) => `OPENROUTER_API_KEY = "${k}"  # todo\n`],
    ['Go', (k) => `client := openai.NewClient("${k}")\n`],
    ['Java', (k) => `String key = "${k}";\n`],
    ['Rust', (k) => `let key = String::from("${k}");\n`],
    ['C#', (k) => `var key = @"${k}";\n`],
    ['shell export', (k) => `export OPENROUTER_API_KEY=${k}\n`],
    ['shell curl header', (k) => `curl -H "Authorization: Bearer ${k}" https://x.test\n`],
    ['.env', (k) => `OPENROUTER_API_KEY=${k}\nOTHER=1\n`],
    ['.env quoted', (k) => `OPENAI_API_KEY="${k}"\n`],
    ['JSON', (k) => `{\n  "apiKey": "${k}",\n  "model": "x"\n}\n`],
    ['YAML', (k) => `env:\n  - name: KEY\n    value: ${k}\n`],
    ['TOML', (k) => `[llm]\napi_key = "${k}"\n`],
    ['XML', (k) => `<config><key>${k}</key></config>\n`],
    ['Dockerfile', (k) => `FROM node:24\nENV OPENROUTER_API_KEY=${k}\n`],
    ['Markdown code', (k) => `Run:\n\n\`\`\`sh\nexport KEY=${k}\n\`\`\`\n`],
    ['Markdown inline', (k) => `Use \`${k}\` for now.\n`],
    [
      'ipynb (JSON-escaped source)',
      (k) => `{"cells":[{"source":["import os\\n","os.environ[\\"KEY\\"] = \\"${k}\\"\\n"]}]}\n`,
    ],
    ['URL query', (k) => `https://example.test/v1?key=${k}&x=1\n`],
    ['URL path', (k) => `https://example.test/${k}/models\n`],
    ['URL-encoded bearer', (k) => `Authorization=Bearer%20${k}\n`],
    ['line comment', (k) => `// old key: ${k}\n`],
    ['block comment', (k) => `/* ${k} */\n`],
    ['CRLF', (k) => `a = 1\r\nkey = "${k}"\r\nb = 2\r\n`],
    ['at byte 0', (k) => k],
    ['at EOF without newline', (k) => `key=${k}`],
    ['escaped newline before', (k) => `"line1\\n${k}"\n`],
    ['escaped tab before', (k) => `"a\\t${k}"\n`],
    ['\\u0022 before', (k) => `{"k":"\\u0022${k}\\u0022"}\n`],
    ['\\x22 before', (k) => `s = "\\x22${k}"\n`],
    ['before a comma', (k) => `[${k},${k.slice(0, 3)}]\n`],
    ['before an ampersand', (k) => `?a=${k}&b=2\n`],
    ['before a slash', (k) => `/keys/${k}/x\n`],
    ['before a parenthesis', (k) => `f(${k})\n`],
    ['before a full stop', (k) => `The key is ${k}.\n`],
    ['before an escaped quote', (k) => `"{\\"key\\":\\"${k}\\"}"\n`],
    ['smart quotes', (k) => `“${k}” ‘x’\n`],
    ['CJK text around', (k) => `密钥是${k}请勿提交\n`],
    ['emoji before', (k) => `🔑${k}\n`],
    ['Unicode line before', (k) => `// naïve café\nkey = '${k}'\n`],
  ];
  const out: Case[] = [];
  for (const [name, build] of cases) {
    const router = r();
    out.push({ name: `router key, ${name}`, text: build(router), keys: [router] });
    const direct = directKey('proj');
    out.push({ name: `direct key, ${name}`, text: build(direct), keys: [direct] });
  }
  for (const kind of ['svcacct', 'admin', 'legacy'] as const) {
    const k = directKey(kind);
    out.push({ name: `direct ${kind} key`, text: `KEY=${k}\n`, keys: [k] });
  }
  const k58 = directKey('proj', 58);
  out.push({ name: 'direct project key with 58-character segments', text: `KEY=${k58}\n`, keys: [k58] });
  const a = r();
  const b = directKey('proj');
  out.push({ name: 'two keys on one line', text: `a=${a} b=${b}\n`, keys: [a, b] });
  return out;
}

export function negativeCases(): Case[] {
  const k = routerKey();
  const hex = k.slice(9);
  const d = directKey('proj');
  return [
    { name: 'inside a longer word (task-or-v1-)', text: `task${k.slice(2)}\n`, keys: [] },
    { name: 'inside a longer word (risk-proj-)', text: `ri${d}\n`, keys: [] },
    { name: 'hex runs on (65 characters)', text: `${k}a\n`, keys: [] },
    { name: 'uppercase hex', text: `${J('sk-or-v1-', hex.toUpperCase())}\n`, keys: [] },
    { name: 'one hex character short', text: `${k.slice(0, -1)}\n`, keys: [] },
    { name: 'placeholder xxxx', text: `OPENROUTER_API_KEY=${J('sk-or-v1-', 'x'.repeat(64))}\n`, keys: [] },
    { name: 'placeholder <your key>', text: 'OPENROUTER_API_KEY=<your key>\n', keys: [] },
    { name: 'masked example', text: `label: ${J('sk-or-v1-', '...abcd')}\n`, keys: [] },
    { name: 'masked with an ellipsis', text: `${J('sk-or-v1-', '…3fa9')}\n`, keys: [] },
    { name: 'masked project key', text: `${J('sk-proj-', '****')}\n`, keys: [] },
    { name: 'all zeros', text: `${J('sk-or-v1-', '0'.repeat(64))}\n`, keys: [] },
    { name: 'repeated pattern', text: `${J('sk-or-v1-', '0123456789abcdef'.repeat(4))}\n`, keys: [] },
    {
      name: 'direct key with low entropy',
      text: `${J('sk-proj-', 'A'.repeat(74), 'T3BlbkFJ', 'A'.repeat(74))}\n`,
      keys: [],
    },
    { name: 'allow comment keyward-ignore', text: `key = "${k}" // keyward-ignore\n`, keys: [] },
    { name: 'allow comment gitleaks:allow', text: `key = "${k}" # gitleaks:allow\n`, keys: [] },
    { name: 'allow comment pragma', text: `key = "${k}"  # pragma: allowlist secret\n`, keys: [] },
    { name: 'allow comment secretlint', text: `key = "${k}" // secretlint-disable-line\n`, keys: [] },
    { name: 'adversarial sk-sk-sk-', text: 'sk-'.repeat(10_000), keys: [] },
    { name: 'a word that starts with sk-', text: 'sk-learn is a library; sk-or-v1 is a prefix\n', keys: [] },
    { name: 'other provider', text: `${J('sk-', 'ant-api03-', 'Q'.repeat(10), 'w9'.repeat(40))}\n`, keys: [] },
    ...providerNegatives(),
  ];
}

/**
 * Hard negatives for the other providers' rules: a character short or long, glued to a word,
 * documented placeholders, and the peers' own false positives (cited where taken).
 */
export function providerNegatives(): Case[] {
  const cases: Case[] = [];
  for (const rule of PROVIDER_KEY_RULES) {
    const key = providerKey(rule);
    cases.push(
      { name: `${rule}: one character short`, text: `KEY=${key.slice(0, -1)}\n`, keys: [] },
      { name: `${rule}: one character long`, text: `KEY=${key}${key.endsWith('A') ? 'A' : 'Q'}\n`, keys: [] },
      { name: `${rule}: glued to a word before`, text: `x = my${key}\n`, keys: [] },
    );
  }
  const x = (n: number) => 'x'.repeat(n);
  cases.push(
    // gitleaks anthropic.go false positives: the wrong suffix.
    {
      name: 'Anthropic key ending BB',
      text: `${J('sk-ant-api03-', providerKey('anthropic-key').slice(13, -2), 'BB')}\n`,
      keys: [],
    },
    { name: 'Anthropic placeholder', text: `ANTHROPIC_API_KEY=${J('sk-ant-api03-', x(93), 'AA')}\n`, keys: [] },
    {
      name: 'Anthropic placeholder with an ellipsis',
      text: `ANTHROPIC_API_KEY=${J('sk-ant-api03-', 'xxxx…')}\n`,
      keys: [],
    },
    {
      name: 'Google placeholder AIzaSy...EXAMPLE',
      text: `GEMINI_API_KEY=${J('AIza', 'Sy', '...EXAMPLE')}\n`,
      keys: [],
    },
    {
      name: 'Google placeholder of the right length with EXAMPLE in it',
      text: `key: ${J('AIza', 'SyD', 'k3Lm9Qw2Zp', 'EXAMPLE', 'r8Tn4Vb6Yc1Ux')}\n`,
      keys: [],
    },
    // gitleaks groq.go false positive: the placeholder of xs.
    { name: 'Groq placeholder', text: `GSK_API_KEY=${J('gsk_', x(52))}\n`, keys: [] },
    { name: 'xAI placeholder', text: `XAI_API_KEY=${J('xai-', x(80))}\n`, keys: [] },
    // gitleaks huggingface.go false positives: identifiers and placeholders.
    { name: 'Hugging Face placeholder', text: `os.environ.get("HF_AUTH_TOKEN", "${J('hf_', x(34))}")\n`, keys: [] },
    { name: 'Hugging Face short placeholder', text: 'You should see a token hf_xxxxx\n', keys: [] },
    {
      name: 'Hugging Face identifier (longer)',
      text: `- (id)${J('hf_', 'requiredCharacteristicTypesForDisplayMetadata')};\n`,
      keys: [],
    },
    {
      name: 'Hugging Face-shaped identifier in one case',
      text: `&${J('hf_', 'servingcellpriorityparametersdescr')},\n`,
      keys: [],
    },
    { name: 'Perplexity placeholder', text: `PERPLEXITY_API_KEY=${J('pplx-', x(48))}\n`, keys: [] },
    { name: 'Perplexity model name', text: 'model: pplx-70b-online\n', keys: [] },
    { name: 'Replicate placeholder', text: `REPLICATE_API_TOKEN=${J('r8_', x(37))}\n`, keys: [] },
    { name: 'Together placeholder', text: `TOGETHER_API_KEY=${J('tgp_v1_', x(43))}\n`, keys: [] },
    { name: 'Fireworks-shaped identifier', text: `${J('fw_', 'updateFirmwareVersionNow')}()\n`, keys: [] },
    // Left out on purpose (README): DeepSeek's "sk-" + 32 hex and Mistral's bare 32 characters have no shape of their own.
    {
      name: 'DeepSeek-shaped sk- + 32 hex',
      text: `DEEPSEEK_API_KEY=${J('sk-', '3f9a1c7e5b2d4068a9c1e3f5b7d90246')}\n`,
      keys: [],
    },
    { name: 'Mistral-shaped bare key', text: 'MISTRAL_API_KEY=Qw3rTy8UiOp1AsDfGh5JkLzXcVbNm2Q4\n', keys: [] },
  );
  return cases;
}
