// Other AI providers' keys: a developer who uses any AI SDK has them in the same files as
// the services' keys. One row per rule: whose key, its title, the variable the provider's
// SDK reads, and where the shape comes from. Only shapes with a documented prefix are here;
// keys without one (Mistral, Cohere: 40 bare characters; DeepSeek: "sk-" and 32 hex, which
// any "sk-" string of that length also is) would be guesses, and a guess costs precision.
import { type KeyOwner, PROVIDER_KEY_SHAPES, type ProviderId, type ProviderRuleId } from '../../shared/keyShapes.ts';
import { type ServiceId, isServiceId } from '../../shared/serviceIds.ts';
import { SERVICES } from '../services/descriptors.ts';

export interface ProviderRule {
  provider: ProviderId;
  confidence: 'high' | 'medium';
  description: string;
  /** Where the shape comes from (the provider's documentation, the peers' rules). */
  source: string;
}

export const PROVIDER_RULES: Record<ProviderRuleId, ProviderRule> = {
  'anthropic-key': {
    provider: 'anthropic',
    confidence: 'high',
    description: 'Anthropic API key',
    source: 'gitleaks anthropic.go, TruffleHog anthropic, secretlint rule-anthropic: sk-ant-api03- + 93 + "AA"',
  },
  'anthropic-admin-key': {
    provider: 'anthropic',
    confidence: 'high',
    description: 'Anthropic Admin API key',
    source: 'gitleaks anthropic.go, TruffleHog anthropic: sk-ant-admin01- + 93 + "AA"',
  },
  'google-api-key': {
    provider: 'google',
    confidence: 'high',
    description: 'Google API key (Gemini / AI Studio, or another Google API)',
    source: 'gitleaks gcp.go (gcp-api-key), TruffleHog googlegemini: AIza + 35',
  },
  'groq-key': {
    provider: 'groq',
    confidence: 'high',
    description: 'Groq API key',
    source: 'TruffleHog groq, secretlint rule-groq: gsk_ + 52 alphanumerics',
  },
  'xai-key': {
    provider: 'xai',
    confidence: 'high',
    description: 'xAI API key',
    source: 'TruffleHog xai: xai- + 80 of [A-Za-z0-9_]',
  },
  'huggingface-token': {
    provider: 'huggingface',
    confidence: 'high',
    description: 'Hugging Face access token',
    source: 'gitleaks huggingface.go, secretlint rule-huggingface: hf_ + 34 letters',
  },
  'perplexity-key': {
    provider: 'perplexity',
    confidence: 'high',
    description: 'Perplexity API key',
    source: 'gitleaks perplexity.go: pplx- + 48 alphanumerics',
  },
  'replicate-token': {
    provider: 'replicate',
    confidence: 'high',
    description: 'Replicate API token',
    source: 'TruffleHog replicate: r8_ + 37 of [A-Za-z0-9_-]',
  },
  'together-key': {
    provider: 'together',
    confidence: 'high',
    description: 'Together AI API key',
    source: 'keys Together issues: tgp_v1_ + 43 base64url (no peer rule yet)',
  },
  'fireworks-key': {
    provider: 'fireworks',
    confidence: 'medium',
    description: 'probable Fireworks AI API key',
    source: 'keys Fireworks issues: fw_ + 24 alphanumerics (no peer rule yet; short, so medium)',
  },
};

/** What a person calls each provider, the variable its SDKs read the key from, and where its keys are rotated. */
export const PROVIDERS: Record<ProviderId, { title: string; env: string; keysPage: string }> = {
  anthropic: { title: 'Anthropic', env: 'ANTHROPIC_API_KEY', keysPage: 'https://console.anthropic.com/settings/keys' },
  // GOOGLE_API_KEY is the other name the Gemini SDKs read; GEMINI_API_KEY is the one AI Studio shows.
  google: { title: 'Google', env: 'GEMINI_API_KEY', keysPage: 'https://aistudio.google.com/apikey' },
  groq: { title: 'Groq', env: 'GROQ_API_KEY', keysPage: 'https://console.groq.com/keys' },
  xai: { title: 'xAI', env: 'XAI_API_KEY', keysPage: 'https://console.x.ai' },
  huggingface: { title: 'Hugging Face', env: 'HF_TOKEN', keysPage: 'https://huggingface.co/settings/tokens' },
  perplexity: { title: 'Perplexity', env: 'PERPLEXITY_API_KEY', keysPage: 'https://www.perplexity.ai/settings/api' },
  replicate: { title: 'Replicate', env: 'REPLICATE_API_TOKEN', keysPage: 'https://replicate.com/account/api-tokens' },
  together: { title: 'Together AI', env: 'TOGETHER_API_KEY', keysPage: 'https://api.together.ai/settings/api-keys' },
  fireworks: { title: 'Fireworks AI', env: 'FIREWORKS_API_KEY', keysPage: 'https://fireworks.ai/account/api-keys' },
};

/** "routing service", "Anthropic": the owner as a sentence names it. */
export function ownerName(owner: KeyOwner): string {
  // English, as the providers' titles are: the owner of a key a team's own rule finds.
  if (owner === 'team') return 'team rule';
  return isServiceOwner(owner) ? SERVICES[owner].displayName : PROVIDERS[owner].title;
}

/** Whether the key belongs to a service Keyward prompts (it can be stored, verified, rotated there). */
export function isServiceOwner(owner: KeyOwner): owner is ServiceId {
  return isServiceId(owner);
}

// Words long enough that a random body holds one about once in a million keys.
const PLACEHOLDER = /example|sample|dummy|your[_-]|yourkey|xxxxxx|123456|abcdef/i;

/** Which provider rule a whole token matches, if any (callers know it starts with a provider prefix). */
export function classifyProviderToken(token: string): ProviderRuleId | undefined {
  for (const id of Object.keys(PROVIDER_KEY_SHAPES) as ProviderRuleId[]) {
    const { prefix, shape } = PROVIDER_KEY_SHAPES[id];
    if (!token.startsWith(prefix) || !shape.test(token)) continue;
    // Documented placeholders ("AIzaSy...EXAMPLE", "your_key_here") carry a word a random body does not.
    if (PLACEHOLDER.test(token.slice(prefix.length))) return undefined;
    // Short or single-alphabet bodies need every letter case (a random body has both; an identifier
    // such as hf_servingcellpriorityparameters or fw_updateFirmwareVersionNow does not).
    if ((id === 'huggingface-token' || id === 'fireworks-key') && !mixed(token.slice(prefix.length), id)) return;
    return id;
  }
  return undefined;
}

function mixed(body: string, id: ProviderRuleId): boolean {
  const upper = /[A-Z]/.test(body);
  const lower = /[a-z]/.test(body);
  return upper && lower && (id !== 'fireworks-key' || /[0-9]/.test(body));
}

/** The part after the documented prefix, where placeholders show. */
export function providerBody(token: string, id: ProviderRuleId): string {
  const { prefix } = PROVIDER_KEY_SHAPES[id];
  // The Anthropic prefixes carry a version ("api03-") past the searched prefix.
  const dash = id.startsWith('anthropic') ? token.indexOf('-', prefix.length) + 1 : prefix.length;
  return token.slice(dash);
}
