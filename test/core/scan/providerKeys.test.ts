// Other AI providers' keys (issue 23, part 1): each shape is its own rule, found in .env,
// code and YAML with exact ranges, masked by the redactor, blocked by the secret guard,
// let through by the byte precheck; and the hard negatives of each stay silent.
// Shapes, as the peers define them:
// - Anthropic: gitleaks cmd/generate/config/rules/anthropic.go (sk-ant-api03-/sk-ant-admin01- + 93 + "AA"),
//   TruffleHog pkg/detectors/anthropic/anthropic.go, secretlint packages/@secretlint/secretlint-rule-anthropic.
// - Google: gitleaks cmd/generate/config/rules/gcp.go (AIza[\w-]{35}), TruffleHog pkg/detectors/googlegemini.
// - Groq: TruffleHog pkg/detectors/groq/groq.go and secretlint-rule-groq (gsk_ + 52; gitleaks groq.go says 48,
//   which its own boundary then never matches on a real 52-character key).
// - xAI: TruffleHog pkg/detectors/xai/xai.go (xai- + 80).
// - Hugging Face: gitleaks huggingface.go and secretlint-rule-huggingface (hf_ + 34 letters).
// - Perplexity: gitleaks cmd/generate/config/rules/perplexity.go (pplx- + 48).
// - Replicate: TruffleHog pkg/detectors/replicate/replicate.go (r8_ + 37).
// - Together (tgp_v1_ + 43) and Fireworks (fw_ + 24): the keys they issue; no peer rule yet.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { redactSecrets } from '../../../src/core/redact.ts';
import { ENV_VAR } from '../../../src/core/scan/fixes.ts';
import { PROVIDER_RULES } from '../../../src/core/scan/providerRules.ts';
import { RULES } from '../../../src/core/scan/rules.ts';
import { optionsFor, scanText } from '../../../src/core/scan/scanner.ts';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { mayContainKey } from '../../../src/core/scan/literalPrecheck.ts';
import { guardPrompt } from '../../../src/core/guards/secretGuard.ts';
import { PROVIDER_KEY_RULES, providerKey } from '../../emulator/keyFactory.ts';
import { providerNegatives } from '../scanCorpus.ts';

const CONTEXTS: [string, string, (key: string) => string][] = [
  ['.env', '.env', (k) => `# AI keys\nAPI_KEY=${k}\nOTHER=1\n`],
  ['TypeScript', 'app.ts', (k) => `const client = new Client({ apiKey: "${k}" });\n`],
  ['Python', 'app.py', (k) => `client = Client(api_key='${k}')\n`],
  ['YAML', 'deploy.yaml', (k) => `env:\n  - name: API_KEY\n    value: ${k}\n`],
  ['YAML quoted', 'compose.yml', (k) => `environment:\n  API_KEY: "${k}"\n`],
];

const ENV_NAMES: Record<(typeof PROVIDER_KEY_RULES)[number], string> = {
  'anthropic-key': 'ANTHROPIC_API_KEY',
  'anthropic-admin-key': 'ANTHROPIC_API_KEY',
  'google-api-key': 'GEMINI_API_KEY',
  'groq-key': 'GROQ_API_KEY',
  'xai-key': 'XAI_API_KEY',
  'huggingface-token': 'HF_TOKEN',
  'perplexity-key': 'PERPLEXITY_API_KEY',
  'replicate-token': 'REPLICATE_API_TOKEN',
  'together-key': 'TOGETHER_API_KEY',
  'fireworks-key': 'FIREWORKS_API_KEY',
};

describe('other AI providers: positives', () => {
  for (const rule of PROVIDER_KEY_RULES) {
    it.each(CONTEXTS)(`${rule} in %s`, (_name, path, context) => {
      const key = providerKey(rule);
      const text = context(key);
      const bytes = Buffer.from(text);
      const options = optionsFor(path, {});
      expect(mayContainKey(bytes, options)).toBe(true);
      const [finding, ...rest] = scanBuffer(bytes, options);
      expect(rest).toEqual([]);
      expect(finding).toMatchObject({
        ruleId: rule,
        service: PROVIDER_RULES[rule].provider,
        confidence: PROVIDER_RULES[rule].confidence,
        fingerprint: fingerprint(key),
      });
      const line = text.split('\n')[finding!.line]!;
      expect(line.slice(finding!.column, finding!.endColumn)).toBe(key);
      expect(finding!.masked.endsWith(key.slice(-4))).toBe(true);
      expect(JSON.stringify(finding)).not.toContain(key);
    });
  }

  it('each rule has its own title, and the quick fix its provider’s usual variable', () => {
    for (const rule of PROVIDER_KEY_RULES) {
      expect(RULES[rule].description).toBe(PROVIDER_RULES[rule].description);
      expect(ENV_VAR[PROVIDER_RULES[rule].provider]).toBe(ENV_NAMES[rule]);
    }
    // The Google shape is every Google API key's, not only Gemini's: the title says so.
    expect(RULES['google-api-key'].description).toMatch(/Google API key.*Gemini.*another Google API/);
    expect(new Set(PROVIDER_KEY_RULES.map((r) => RULES[r].description)).size).toBe(PROVIDER_KEY_RULES.length);
  });

  it('the redactor masks each everywhere text is shown, leaving only the prefix and last four', () => {
    for (const rule of PROVIDER_KEY_RULES) {
      const key = providerKey(rule);
      const masked = redactSecrets(`401: invalid key ${key} (check it)`);
      expect(masked, rule).not.toContain(key);
      expect(masked, rule).not.toContain(key.slice(8, -4));
      expect(masked, rule).toContain(`…${key.slice(-4)}`);
    }
  });

  it('the secret guard stops each in a prompt and sends it redacted only when asked', async () => {
    for (const rule of PROVIDER_KEY_RULES) {
      const key = providerKey(rule);
      let asked = '';
      const cancelled = await guardPrompt(`why does ${key} fail?`, [], {}, (names) => {
        asked = names;
        return Promise.resolve('cancel');
      });
      expect(cancelled, rule).toBeUndefined();
      expect(asked, rule).toContain(PROVIDER_RULES[rule].description);
      expect(asked, rule).not.toContain(key);
      const sent = await guardPrompt(`why does ${key} fail?`, [], {}, () => Promise.resolve('redact'));
      expect(sent!.prompt, rule).not.toContain(key);
    }
  });
});

describe('other AI providers: hard negatives', () => {
  it.each(providerNegatives().map((c) => [c.name, c.text] as const))('%s', (_name, text) => {
    expect(scanText(text)).toEqual([]);
    // The precheck may let a near-miss through, but then the scanner decides: nothing.
    expect(scanBuffer(Buffer.from(text), optionsFor('x.yaml', {}))).toEqual([]);
  });

  it('a file that only mentions the prefixes is never decoded', () => {
    const text =
      'import { hf_hub_download } from "x";\nconst xai = xai-grok-2;\nuse_gsk_ = r8_model; // tgp_v1_ fw_ pplx-online AIza\n';
    expect(mayContainKey(Buffer.from(text))).toBe(false);
  });
});
