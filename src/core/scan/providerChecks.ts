// How `keyward scan --verify` asks another AI provider whether a key found in a file is live: one request per
// provider that costs nothing (a model list or a "who am I"), on the provider's official host, with the key only in
// the header the provider's API reads, and how to read the answer. Each row cites the endpoint's documentation and
// where the success and refusal shapes come from; test/emulator/providerChecks.ts answers with the same shapes.
//
// Only an answer the provider documents for a refused key (401, or the provider's own refusal below) is
// "inactive", and only the documented success shape is "live". Anything else (another status, a body of another
// shape) is "unknown": it says nothing about the key. A provider with no such check is "unknown", with why.
import type { ProviderId } from '../../shared/keyShapes.ts';

export type ProviderVerdict = { status: 'live' | 'inactive'; reason?: string } | undefined;

export interface ProviderRequest {
  /** Joined to the base URL; a query here carries no key. */
  path: string;
  /** The key goes here and nowhere else. */
  headers: Record<string, string>;
  /** How the report names the request: "GET /v1/models". */
  label: string;
}

export interface ProviderCheck {
  /** The official base URL; `--verify-base-url PROVIDER=URL` replaces it. */
  baseUrl: string;
  /** The endpoint's documentation, cited in docs/cli.md. */
  docs: string;
  request(key: string): ProviderRequest;
  /** The answer read: live or inactive, or undefined when it is not one the provider documents. */
  judge(status: number, body: unknown, key: string): ProviderVerdict;
}

export interface NoProviderCheck {
  /** Why the key cannot be checked at no cost. */
  none: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const field = (value: unknown, name: string): unknown => (isObject(value) ? value[name] : undefined);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The OpenAI-style list `{"object":"list","data":[…]}` that Groq's model list answers with. */
const isModelList = (body: unknown) => Array.isArray(field(body, 'data'));

/** `{"error":{"message":…}}`, `{"error":"…"}` or `{"detail":"…"}`: the provider's own words, for the reason. */
export function providerMessage(body: unknown): string {
  const error = field(body, 'error');
  const message = typeof error === 'string' ? error : field(error, 'message');
  if (typeof message === 'string') return message;
  const detail = field(body, 'detail');
  return typeof detail === 'string' ? detail : '';
}

/** 401 is a refusal of the key at every provider below; some refuse with another status too (their rows say). */
const refusedIf401 = (status: number): ProviderVerdict => (status === 401 ? { status: 'inactive' } : undefined);

/** The reasons Google's ErrorInfo gives (`error.details[].reason`). */
function googleReasons(body: unknown): string[] {
  const details = field(field(body, 'error'), 'details');
  if (!Array.isArray(details)) return [];
  return details.map((d) => field(d, 'reason')).filter((r): r is string => typeof r === 'string');
}

const ANTHROPIC_VERSION = { 'anthropic-version': '2023-06-01' };

export const PROVIDER_CHECKS: Record<ProviderId, ProviderCheck | NoProviderCheck> = {
  // API keys: GET /v1/models (https://docs.anthropic.com/en/api/models-list); Admin keys reach only the Admin API:
  // GET /v1/organizations/me (https://docs.anthropic.com/en/api/admin-api/organization/get-me). Both take the key in
  // x-api-key with anthropic-version. 200 {"data":[…],"has_more"} / {"type":"organization","id"}; a refused key
  // 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}
  // (https://docs.anthropic.com/en/api/errors; anthropic-sdk-typescript AuthenticationError on 401).
  anthropic: {
    baseUrl: 'https://api.anthropic.com/v1',
    docs: 'https://docs.anthropic.com/en/api/models-list',
    request: (key) =>
      key.startsWith('sk-ant-admin')
        ? {
            path: '/organizations/me',
            headers: { 'x-api-key': key, ...ANTHROPIC_VERSION },
            label: 'GET /v1/organizations/me',
          }
        : { path: '/models?limit=1', headers: { 'x-api-key': key, ...ANTHROPIC_VERSION }, label: 'GET /v1/models' },
    judge: (status, body, key) => {
      if (status !== 200) return refusedIf401(status);
      const ok = key.startsWith('sk-ant-admin')
        ? field(body, 'type') === 'organization'
        : Array.isArray(field(body, 'data'));
      return ok ? { status: 'live' } : undefined;
    },
  },
  // GET /v1beta/models with the key in x-goog-api-key, never ?key= in the URL
  // (https://ai.google.dev/api/models#method:-models.list, https://ai.google.dev/gemini-api/docs/api-key).
  // 200 {"models":[…]}; a key Google does not know: 400 INVALID_ARGUMENT with ErrorInfo reason API_KEY_INVALID
  // ("API key not valid. Please pass a valid API key.", as google-gemini/gemini-cli#25198 and
  // continuedev/continue#8516 show it). A key restricted to other Google APIs, or of a project without the Gemini API,
  // is refused with 403 (API_KEY_SERVICE_BLOCKED, SERVICE_DISABLED): Google knows the key, so it is not "inactive";
  // unknown, with that reason.
  google: {
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    docs: 'https://ai.google.dev/api/models#method:-models.list',
    request: (key) => ({ path: '/models?pageSize=1', headers: { 'x-goog-api-key': key }, label: 'GET /v1beta/models' }),
    judge: (status, body) => {
      if (status === 200) return Array.isArray(field(body, 'models')) ? { status: 'live' } : undefined;
      if (status === 400 && googleReasons(body).includes('API_KEY_INVALID')) return { status: 'inactive' };
      return refusedIf401(status);
    },
  },
  // GET /openai/v1/models with Bearer (https://console.groq.com/docs/api-reference#models-list): 200
  // {"object":"list","data":[…]}; a refused key 401 {"error":{"message":"Invalid API Key","type":
  // "invalid_request_error","code":"invalid_api_key"}} (as ag5826000/resume-commentor#4 shows it).
  groq: {
    baseUrl: 'https://api.groq.com/openai/v1',
    docs: 'https://console.groq.com/docs/api-reference#models-list',
    request: (key) => ({ path: '/models', headers: bearer(key), label: 'GET /openai/v1/models' }),
    judge: (status, body) =>
      status === 200 ? (isModelList(body) ? { status: 'live' } : undefined) : refusedIf401(status),
  },
  // GET /v1/api-key with Bearer (https://docs.x.ai/docs/api-reference#get-api-key-info): 200 with the key's
  // api_key_id, redacted_api_key and whether it, or its team, is blocked or disabled; a key xAI does not know is
  // refused with 400 {"code":"Client specified an invalid argument","error":"Incorrect API key provided: …"}
  // (the API reference's 400; continuedev/continue#10778, i-am-bee/beeai-framework#447).
  xai: {
    baseUrl: 'https://api.x.ai/v1',
    docs: 'https://docs.x.ai/docs/api-reference#get-api-key-info',
    request: (key) => ({ path: '/api-key', headers: bearer(key), label: 'GET /v1/api-key' }),
    judge: (status, body) => {
      if (status === 400 && /incorrect(?:%20| )api(?:%20| )key/i.test(providerMessage(body)))
        return { status: 'inactive' };
      if (status !== 200) return refusedIf401(status);
      if (typeof field(body, 'api_key_id') !== 'string') return undefined;
      const off = ['api_key_disabled', 'api_key_blocked', 'team_blocked'].filter((flag) => field(body, flag) === true);
      return off.length > 0
        ? { status: 'inactive', reason: `xAI knows the key but reports ${off.join(', ')}` }
        : { status: 'live' };
    },
  },
  // GET /api/whoami-v2 with Bearer (https://huggingface.co/docs/hub/api, huggingface_hub HfApi.whoami,
  // huggingface.js who-am-i.ts): 200 {"type":"user"|"org"|"app","name",…,"auth":{…}}; a refused token 401
  // {"error":"Invalid credentials in Authorization header"} (huggingface/huggingface_hub#3368).
  huggingface: {
    baseUrl: 'https://huggingface.co/api',
    docs: 'https://huggingface.co/docs/hub/api',
    request: (key) => ({ path: '/whoami-v2', headers: bearer(key), label: 'GET /api/whoami-v2' }),
    judge: (status, body) =>
      status === 200
        ? typeof field(body, 'type') === 'string' && typeof field(body, 'name') === 'string'
          ? { status: 'live' }
          : undefined
        : refusedIf401(status),
  },
  perplexity: {
    none: 'Perplexity documents no request that checks a key at no cost (its API is chat and search, each billed)',
  },
  // GET /v1/account with Bearer (https://replicate.com/docs/reference/http#account.get): 200
  // {"type":"user"|"organization","username",…}; a refused token 401 {"title":"Unauthenticated","detail":"You did
  // not pass a valid authentication token","status":401} (replicate/comfyui-replicate#7, replicate-python#47).
  replicate: {
    baseUrl: 'https://api.replicate.com/v1',
    docs: 'https://replicate.com/docs/reference/http#account.get',
    request: (key) => ({ path: '/account', headers: bearer(key), label: 'GET /v1/account' }),
    judge: (status, body) =>
      status === 200
        ? typeof field(body, 'username') === 'string'
          ? { status: 'live' }
          : undefined
        : refusedIf401(status),
  },
  // GET /v1/models with Bearer (https://docs.together.ai/reference/models-1): 200 with an array of models
  // ([{"id","object":"model",…}], Together's OpenAPI ModelInfo list); a refused key 401 {"error":{"message":"Invalid
  // API key provided. …","type":"invalid_request_error","code":"invalid_api_key"}} (harshitv804/LawGPT#4).
  together: {
    baseUrl: 'https://api.together.xyz/v1',
    docs: 'https://docs.together.ai/reference/models-1',
    request: (key) => ({ path: '/models', headers: bearer(key), label: 'GET /v1/models' }),
    judge: (status, body) =>
      status === 200
        ? Array.isArray(body) || isModelList(body)
          ? { status: 'live' }
          : undefined
        : refusedIf401(status),
  },
  fireworks: {
    none: 'Fireworks AI documents no request that checks a key at no cost and says how it refuses one',
  },
};

export function hasProviderCheck(entry: ProviderCheck | NoProviderCheck): entry is ProviderCheck {
  return !('none' in entry);
}
