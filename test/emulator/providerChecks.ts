// A small HTTP server that answers each provider's no-cost key check (src/core/scan/providerChecks.ts) with the
// provider's real success and refusal shapes, each cited where the check's row cites it, under /<provider>/…:
// `--verify-base-url anthropic=<url>/anthropic/v1`. A key the test made live is accepted; any other is refused as
// the provider refuses it. A provider can be switched to an answer of another shape (`unexpected`), to a 500 that
// echoes the key (`echo`), to silence (`silent`), or to a redirect (`redirect`). Every request is recorded with the headers that could carry a key.
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

export type CheckedProvider = 'anthropic' | 'google' | 'groq' | 'xai' | 'huggingface' | 'replicate' | 'together';
export const CHECKED_PROVIDERS: readonly CheckedProvider[] = [
  'anthropic',
  'google',
  'groq',
  'xai',
  'huggingface',
  'replicate',
  'together',
];

/** The path below /<provider> each check asks, and the base URL suffix it is joined to. */
export const PROVIDER_BASE: Record<CheckedProvider, string> = {
  anthropic: '/anthropic/v1',
  google: '/google/v1beta',
  groq: '/groq/openai/v1',
  xai: '/xai/v1',
  huggingface: '/huggingface/api',
  replicate: '/replicate/v1',
  together: '/together/v1',
};

export interface SeenRequest {
  provider: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization?: string;
  xApiKey?: string;
  xGoogApiKey?: string;
  anthropicVersion?: string;
}

export interface ProviderServer {
  url: string;
  /** `--verify-base-url` values pointing every checked provider here. */
  flags(): string[];
  live: Set<string>;
  /** xAI keys it knows but reports disabled; Google keys it knows but blocks for the Gemini API. */
  disabled: Set<string>;
  mode: Partial<Record<CheckedProvider, 'unexpected' | 'echo' | 'silent' | 'redirect'>>;
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Reply = [number, unknown];

function keyOf(req: IncomingMessage, provider: string): string {
  if (provider === 'anthropic') return String(req.headers['x-api-key'] ?? '');
  if (provider === 'google') return String(req.headers['x-goog-api-key'] ?? '');
  return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
}

/** Anthropic: docs.anthropic.com models-list, admin-api get-me and errors; anthropic-sdk-typescript. */
function anthropic(path: string, key: string, live: boolean): Reply {
  if (!live)
    return [
      401,
      { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_011' },
    ];
  if (path === '/v1/organizations/me') return [200, { id: randomUUID(), name: 'Keyward Test', type: 'organization' }];
  const model = {
    type: 'model',
    id: 'claude-sonnet-4-5',
    display_name: 'Claude Sonnet 4.5',
    created_at: '2025-09-29T00:00:00Z',
  };
  return key.startsWith('sk-ant-admin')
    ? [401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }]
    : [200, { data: [model], has_more: true, first_id: model.id, last_id: model.id }];
}

/** Google: ai.google.dev models.list; the refusals as google-gemini/gemini-cli#25198 and continuedev/continue#8516 show. */
function google(live: boolean, blocked: boolean): Reply {
  const refusal = (code: number, status: string, reason: string, message: string): Reply => [
    code,
    {
      error: {
        code,
        message,
        status,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason,
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
          { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
        ],
      },
    },
  ];
  if (blocked)
    return refusal(
      403,
      'PERMISSION_DENIED',
      'API_KEY_SERVICE_BLOCKED',
      'Requests to this API generativelanguage.googleapis.com method google.ai.generativelanguage.v1beta.ModelService.ListModels are blocked.',
    );
  if (!live)
    return refusal(400, 'INVALID_ARGUMENT', 'API_KEY_INVALID', 'API key not valid. Please pass a valid API key.');
  return [
    200,
    {
      models: [
        {
          name: 'models/gemini-2.5-flash',
          version: '001',
          displayName: 'Gemini 2.5 Flash',
          inputTokenLimit: 1048576,
          outputTokenLimit: 65536,
          supportedGenerationMethods: ['generateContent'],
        },
      ],
      nextPageToken: 'Ch1tb2RlbHM',
    },
  ];
}

/** Groq: console.groq.com API reference; the 401 as ag5826000/resume-commentor#4 shows it. */
function groq(live: boolean): Reply {
  if (!live)
    return [401, { error: { message: 'Invalid API Key', type: 'invalid_request_error', code: 'invalid_api_key' } }];
  return [
    200,
    {
      object: 'list',
      data: [
        {
          id: 'llama-3.3-70b-versatile',
          object: 'model',
          created: 1733447754,
          owned_by: 'Meta',
          active: true,
          context_window: 131072,
        },
      ],
    },
  ];
}

/** xAI: docs.x.ai API reference (GET /v1/api-key and its 400); continuedev/continue#10778 for the message. */
function xai(key: string, live: boolean, disabled: boolean): Reply {
  if (!live && !disabled)
    return [
      400,
      {
        code: 'Client specified an invalid argument',
        error: `Incorrect API key provided: ${key.slice(0, 2)}***${key.slice(-2)}. You can obtain an API key from https://console.x.ai.`,
      },
    ];
  const time = '2025-01-01T12:55:18.139305Z';
  return [
    200,
    {
      redacted_api_key: `xai-...${key.slice(-4)}`,
      user_id: randomUUID(),
      name: 'ci',
      create_time: time,
      modify_time: time,
      modified_by: randomUUID(),
      team_id: randomUUID(),
      acls: ['api-key:model:*', 'api-key:endpoint:*'],
      api_key_id: randomUUID(),
      team_blocked: false,
      api_key_blocked: false,
      api_key_disabled: disabled,
    },
  ];
}

/** Hugging Face: huggingface.js who-am-i.ts and its spec; the 401 as huggingface/huggingface_hub#3368 shows it. */
function huggingface(live: boolean): Reply {
  if (!live) return [401, { error: 'Invalid credentials in Authorization header' }];
  return [
    200,
    {
      type: 'user',
      id: '62f264b9f3c90f4b6514a269',
      name: 'keyward-ci',
      fullname: 'Keyward CI',
      email: null,
      emailVerified: false,
      canPay: false,
      isPro: false,
      periodEnd: null,
      avatarUrl: '/avatars/ci.svg',
      orgs: [],
      auth: {
        type: 'access_token',
        accessToken: { displayName: 'ci', role: 'read', createdAt: '2025-01-01T00:00:00.000Z' },
      },
    },
  ];
}

/** Replicate: replicate.com/docs/reference/http#account.get; the 401 as replicate/comfyui-replicate#7 shows it. */
function replicate(live: boolean): Reply {
  if (!live)
    return [401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }];
  return [200, { type: 'user', username: 'keyward-ci', name: 'Keyward CI', github_url: null }];
}

/** Together: its OpenAPI (a bare array of ModelInfo); the 401 as harshitv804/LawGPT#4 shows it. */
function together(live: boolean): Reply {
  if (!live)
    return [
      401,
      {
        error: {
          message: 'Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    ];
  return [
    200,
    [
      {
        id: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
        object: 'model',
        created: 1733443200,
        type: 'chat',
        display_name: 'Llama 3.3 70B Instruct Turbo',
        organization: 'Meta',
      },
    ],
  ];
}

const ROUTES: Record<string, CheckedProvider> = {
  'GET /anthropic/v1/models': 'anthropic',
  'GET /anthropic/v1/organizations/me': 'anthropic',
  'GET /google/v1beta/models': 'google',
  'GET /groq/openai/v1/models': 'groq',
  'GET /xai/v1/api-key': 'xai',
  'GET /huggingface/api/whoami-v2': 'huggingface',
  'GET /replicate/v1/account': 'replicate',
  'GET /together/v1/models': 'together',
};

function answer(server: ProviderServer, provider: CheckedProvider, path: string, key: string): Reply {
  const live = server.live.has(key);
  const disabled = server.disabled.has(key);
  switch (provider) {
    case 'anthropic':
      return anthropic(path.slice('/anthropic'.length), key, live);
    case 'google':
      return google(live, disabled);
    case 'groq':
      return groq(live);
    case 'xai':
      return xai(key, live, disabled);
    case 'huggingface':
      return huggingface(live);
    case 'replicate':
      return replicate(live);
    case 'together':
      return together(live);
  }
}

export async function startProviderServer(): Promise<ProviderServer> {
  const state = { live: new Set<string>(), disabled: new Set<string>(), mode: {}, seen: [] as SeenRequest[] };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const provider = ROUTES[`${req.method} ${url.pathname}`];
    const h = req.headers;
    server.seen.push({
      provider: provider ?? 'none',
      method: req.method ?? '',
      url: req.url ?? '',
      ...(h.authorization ? { authorization: h.authorization } : {}),
      ...(h['x-api-key'] ? { xApiKey: String(h['x-api-key']) } : {}),
      ...(h['x-goog-api-key'] ? { xGoogApiKey: String(h['x-goog-api-key']) } : {}),
      ...(h['anthropic-version'] ? { anthropicVersion: String(h['anthropic-version']) } : {}),
    });
    if (!provider) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    const key = keyOf(req, provider);
    const mode = server.mode[provider];
    // Accepts the request and never answers: the check's wait must end it.
    if (mode === 'silent') return;
    if (mode === 'redirect')
      return void res.writeHead(302, { location: `${server.url}/elsewhere${url.pathname}` }).end();
    // A captive portal or a changed API: 200 of another shape, which says nothing about the key.
    if (mode === 'unexpected')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the network</html>');
    if (mode === 'echo')
      return void res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `internal error for ${key}` } }));
    const [status, body] = answer(server, provider, url.pathname, key);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const http = createServer(handle);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  const server: ProviderServer = {
    url: base,
    ...state,
    flags: () => CHECKED_PROVIDERS.flatMap((p) => ['--verify-base-url', `${p}=${base}${PROVIDER_BASE[p]}`]),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return server;
}
