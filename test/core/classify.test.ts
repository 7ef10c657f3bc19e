// Classification of the wire-facts cases the emulator does not produce itself.
import { describe, expect, it } from 'vitest';
import {
  classifyOpenAiError,
  classifyOpenAiResponse,
  classifyRouterError,
  classifyRouterResponse,
} from '../../src/core/classify.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const headers =
  (h: Record<string, string> = {}) =>
  (name: string) =>
    h[name.toLowerCase()];
const router = (status: number, body: unknown, h: Record<string, string> = {}) =>
  classifyRouterResponse({
    status,
    text: typeof body === 'string' ? body : JSON.stringify(body),
    header: headers(h),
    now: NOW,
    secrets: [],
  });
const direct = (status: number, body: unknown, h: Record<string, string> = {}) =>
  classifyOpenAiResponse({
    status,
    text: typeof body === 'string' ? body : JSON.stringify(body),
    header: headers(h),
    now: NOW,
    secrets: [],
  });

describe('routing service', () => {
  it.each([
    [401, { error: { code: 401, message: 'User not found.' } }, 'auth'],
    [401, { error: { code: 401, message: 'No auth credentials found' } }, 'auth'],
    [
      402,
      { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits' } },
      'insufficient_credits',
    ],
    [
      402,
      {
        error: {
          code: 402,
          message:
            'This request requires more credits, or fewer max_tokens. ... To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit',
        },
      },
      'key_limit',
    ],
    [
      403,
      {
        error: {
          code: 403,
          message: 'Request blocked: prompt injection patterns detected',
          metadata: { patterns: ['x'] },
        },
      },
      'permission',
    ],
    [
      403,
      {
        error: { code: 403, message: 'over budget', metadata: { limit_source: 'openrouter_key_limit', scope: 'key' } },
      },
      'key_limit',
    ],
    [408, { error: { code: 408, message: 'Operation timed out. Please try again later.' } }, 'timeout'],
    [413, { error: { code: 413, message: 'Payload too large' } }, 'bad_request'],
    [
      429,
      { error: { code: 429, message: 'Rate limit exceeded', metadata: { error_type: 'rate_limit_exceeded' } } },
      'rate_limit',
    ],
    [
      503,
      { error: { code: 503, message: 'no available model provider that meets your routing requirements' } },
      'server',
    ],
    [529, { error: { code: 529, message: 'Provider overloaded' } }, 'server'],
  ])('%i %j is %s', (status, body, kind) => {
    expect(router(status, body).kind).toBe(kind);
  });

  it('reads Retry-After as an HTTP-date for in_flight_budget', () => {
    const error = router(
      402,
      {
        error: {
          code: 402,
          message: 'would exceed',
          metadata: { reason: 'in_flight_budget_exhausted', limit_source: 'openrouter_in_flight_budget' },
        },
      },
      { 'retry-after': new Date(NOW + 120_000).toUTCString() },
    );
    expect(error).toMatchObject({
      kind: 'in_flight_budget',
      code: 'in_flight_budget_exhausted',
      retryAfterSeconds: 120,
    });
  });

  it('reads X-RateLimit-Reset from metadata.headers when the response headers lack it', () => {
    const error = router(429, {
      error: {
        code: 429,
        message: 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day',
        metadata: {
          headers: {
            'X-RateLimit-Limit': '50',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(NOW + 3_600_000),
          },
        },
      },
    });
    expect(error).toMatchObject({ kind: 'free_limit_day', retryAfterSeconds: 3600 });
  });

  it('takes an upstream free-model 429 with retry_after_seconds in metadata as a plain rate limit', () => {
    const error = router(429, {
      error: {
        code: 429,
        message: 'Provider returned error',
        metadata: {
          raw: 'meta-llama/x:free is temporarily rate-limited upstream',
          provider_name: 'Venice',
          retry_after_seconds: 17,
        },
      },
    });
    expect(error).toMatchObject({ kind: 'rate_limit', retryAfterSeconds: 17 });
    expect(
      router(429, {
        error: { code: 429, message: 'Provider returned error', metadata: { raw: 'free-models-per-min exceeded' } },
      }).kind,
    ).toBe('free_limit_minute');
  });

  it('accepts a mid-stream error code as a string', () => {
    const error = classifyRouterError({ code: 'server_error', message: 'Provider disconnected unexpectedly' }, 502, {
      header: headers(),
      now: NOW,
      secrets: [],
    });
    expect(error.kind).toBe('server');
  });

  // errors-and-debugging.mdx (wire facts A2): 403 is "insufficient permissions, guardrail block, or moderation flag";
  // moderation metadata is {reasons, flagged_input, provider_name, model_slug}.
  it.each([
    [
      'the documented metadata',
      {
        error: {
          code: 403,
          message: 'openai/gpt-5 requires moderation on OpenAI. Your input was flagged for "violence".',
          metadata: {
            reasons: ['violence'],
            flagged_input: '...',
            provider_name: 'OpenAI',
            model_slug: 'openai/gpt-5',
          },
        },
      },
      /flagged by OpenAI's moderation for violence \(model openai\/gpt-5\)/,
    ],
    // A field payload without provider_name or model_slug, as quoted in a public crawler's README.
    [
      'reasons and flagged_input only',
      {
        error: {
          message:
            'anthropic/claude-3-5-haiku requires moderation on Amazon Bedrock. Your input was flagged for "self-harm/instructions, self-harm/intent". No credits were charged.',
          code: 403,
          metadata: { reasons: ['self-harm/instructions', 'self-harm/intent'], flagged_input: 'Tell me about it' },
        },
      },
      /flagged by Amazon Bedrock's moderation for self-harm\/instructions, self-harm\/intent \(model anthropic\/claude-3-5-haiku\)/,
    ],
    [
      'the message alone',
      {
        error: {
          message:
            'minimax/minimax-m2.5:free requires moderation on OpenInference. Your input was flagged for "violence/graphic". No credits were charged.',
        },
      },
      /flagged by OpenInference's moderation \(model minimax\/minimax-m2.5:free\)/,
    ],
  ])('403 moderation from %s is moderation, saying by whom', (_name, body, message) => {
    const error = router(403, body);
    expect(error.kind).toBe('moderation');
    expect(error.message).toMatch(message);
    expect(error.action).not.toMatch(/key/i);
  });

  it.each([
    // The spec's own 403 example (ForbiddenResponse).
    { error: { code: 403, message: 'Only management keys can perform this operation' } },
    {
      error: {
        code: 403,
        message: 'Request blocked: prompt injection patterns detected',
        metadata: { patterns: ['x'] },
      },
    },
  ])('a permission or guardrail 403 stays permission (%#)', (body) => {
    expect(router(403, body).kind).toBe('permission');
  });

  it('says which data policy emptied the endpoints, from what the request sent', () => {
    // The text users paste from live calls: dnakov/anon-kode#13, unoplat/unoplat-code-confluence#1080.
    const body = {
      error: {
        message:
          'No endpoints found matching your data policy (Free model publication). Configure: https://openrouter.ai/settings/privacy',
        code: 404,
      },
    };
    const sent = (request: { denyDataCollection: boolean } | undefined) =>
      classifyRouterResponse({
        status: 404,
        text: JSON.stringify(body),
        header: headers(),
        now: NOW,
        secrets: [],
        request,
      });
    expect(sent({ denyDataCollection: true })).toMatchObject({
      kind: 'bad_request',
      code: 'privacy_restricted',
      action: expect.stringMatching(/carried Keyward's training opt-out \(keyward\.router\.denyDataCollection\)/),
    });
    const account = sent({ denyDataCollection: false });
    expect(account.action).toMatch(/did not carry Keyward's training opt-out, so the account's own privacy settings/);
    expect(account.action).toContain('https://openrouter.ai/settings/privacy');
    expect(sent(undefined).action).toMatch(/Either Keyward's training opt-out .* or the account's privacy settings/);
  });

  it('reads x-should-retry from the response', () => {
    expect(
      router(500, { error: { code: 500, message: 'Internal Server Error' } }, { 'x-should-retry': 'false' })
        .shouldRetry,
    ).toBe(false);
    expect(router(400, { error: { code: 400, message: 'x' } }, { 'x-should-retry': 'true' }).shouldRetry).toBe(true);
    expect(router(500, '<html></html>', { 'x-should-retry': 'false' }).shouldRetry).toBe(false);
    expect(router(500, { error: { code: 500, message: 'x' } }).shouldRetry).toBeNull();
  });

  it('reports a body that is not JSON by its status and title', () => {
    expect(router(502, '<html><head><title>502 Bad Gateway</title></head></html>')).toMatchObject({
      kind: 'server',
      status: 502,
      message: expect.stringContaining('502 Bad Gateway'),
    });
  });
});

describe('direct service', () => {
  it.each([
    [
      401,
      {
        error: {
          message: 'Incorrect API key provided: sk-proj-****...SJh4.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
      'auth',
      'invalid_api_key',
    ],
    [
      403,
      {
        error: {
          message:
            'You have insufficient permissions for this operation. Missing scopes: model.request. Check that ...',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
      'permission',
      'model.request',
    ],
    // The body users paste from live calls: home-assistant/core#120072, continuedev/continue#11449, songquanpeng/one-api#1692.
    [
      403,
      {
        error: {
          message: 'Country, region, or territory not supported',
          type: 'request_forbidden',
          param: null,
          code: 'unsupported_country_region_territory',
        },
      },
      'region',
      'unsupported_country_region_territory',
    ],
    [
      403,
      {
        error: {
          message: 'Country, region, or territory not supported (request id: 2024072510422562564674066306279)',
          type: 'request_forbidden',
          param: '',
          code: 'unsupported_country_region_territory',
        },
      },
      'region',
      'unsupported_country_region_territory',
    ],
    [
      429,
      {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
      'credit_exhausted',
      'insufficient_quota',
    ],
    [
      429,
      { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: null } },
      'credit_exhausted',
      null,
    ],
    [
      429,
      {
        error: { message: 'hard limit', type: 'insufficient_quota', param: null, code: 'project_spend_limit_exceeded' },
      },
      'spend_limit',
      'project_spend_limit_exceeded',
    ],
    [
      429,
      { error: { message: 'billing', type: 'insufficient_quota', param: null, code: 'billing_hard_limit_reached' } },
      'spend_limit',
      'billing_hard_limit_reached',
    ],
    [
      429,
      {
        error: {
          message: 'Please reduce your rate of requests.',
          type: 'rate_limit_error',
          param: null,
          code: 'slow_down',
        },
      },
      'rate_limit',
      'slow_down',
    ],
    [
      503,
      {
        error: {
          message: 'The server is overloaded.',
          type: 'service_unavailable_error',
          param: null,
          code: 'server_is_overloaded',
        },
      },
      'server',
      'server_is_overloaded',
    ],
    [
      400,
      {
        error: {
          message: "Unsupported parameter: 'temperature' is not supported with this model.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: null,
        },
      },
      'bad_request',
      null,
    ],
  ])('%i is %s (%#)', (status, body, kind, code) => {
    expect(direct(status, body)).toMatchObject({ kind, code });
  });

  it('reads the wait from retry-after-ms, retry-after, x-ratelimit-reset-* and the message, in that order', () => {
    const body = {
      error: {
        message: 'Rate limit reached ... Please try again in 20s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    };
    expect(direct(429, body, { 'retry-after-ms': '1500', 'retry-after': '9' }).retryAfterSeconds).toBe(1.5);
    expect(direct(429, body, { 'retry-after': '9' }).retryAfterSeconds).toBe(9);
    expect(direct(429, body, { 'x-ratelimit-reset-requests': '6m0s' }).retryAfterSeconds).toBe(360);
    expect(direct(429, body).retryAfterSeconds).toBe(20);
  });

  it('classifies stream error events of either shape', () => {
    const context = { header: headers(), now: NOW, secrets: [] };
    expect(
      classifyOpenAiError(
        { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota' },
        null,
        context,
      ).kind,
    ).toBe('credit_exhausted');
    expect(
      classifyOpenAiError({ code: 'rate_limit_exceeded', message: 'Request too large for gpt-4o-mini' }, null, context)
        .kind,
    ).toBe('rate_limit');
    expect(
      classifyOpenAiError({ type: 'server_error', code: null, message: 'Sorry, something went wrong.' }, null, context)
        .kind,
    ).toBe('server');
  });

  it("marks a request larger than the rate limit's token budget as not worth retrying", () => {
    // The response.failed fixture in vercel/ai (wire facts B5): "Request too large ... Limit 30000, Requested 35364."
    const tooLarge = classifyOpenAiError(
      {
        code: 'rate_limit_exceeded',
        message:
          'Request too large for gpt-4o-mini in organization on tokens per min (TPM): Limit 30000, Requested 35364.',
      },
      null,
      { header: headers(), now: NOW, secrets: [] },
    );
    expect(tooLarge).toMatchObject({
      kind: 'rate_limit',
      shouldRetry: false,
      action: expect.stringMatching(/needs 35364 tokens but the rate limit allows 30000/),
    });
    const fits = direct(429, {
      error: {
        message:
          'Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    expect(fits).toMatchObject({ kind: 'rate_limit', shouldRetry: null, retryAfterSeconds: 2 });
    expect(
      direct(
        429,
        {
          error: {
            message: 'Request too large ... Limit 30000, Requested 35364.',
            type: 'tokens',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { 'x-should-retry': 'true' },
      ).shouldRetry,
    ).toBe(true);
  });

  it('masks the caller key in any message', () => {
    const secret = ['sk', 'proj', 'a'.repeat(30)].join('-');
    const error = classifyOpenAiResponse({
      status: 401,
      text: JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${secret}`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
      header: headers(),
      now: NOW,
      secrets: [secret],
    });
    expect(error.message).not.toContain(secret);
  });
});
