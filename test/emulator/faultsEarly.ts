// Faults that strike before the service looks at the request: canned answers
// in each service's real shape (error pages, 403s, redirects, bodies that never
// end, a key echoed back), held headers, and the `x-should-retry` header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSpec } from './faults.ts';
import { bearerToken, clientGone, readBody, sendJson, sleep } from './http.ts';

type Service = 'router' | 'direct';

function directError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function html(res: ServerResponse, status: number, title: string): void {
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(page)) });
  res.end(page);
}

/**
 * Writes `piece` again and again, as fast as the client reads, until it leaves:
 * a server that never ends a line or a body.
 */
export async function pump(res: ServerResponse, piece: string | Buffer, signal: AbortSignal): Promise<void> {
  while (!signal.aborted && !res.destroyed) {
    if (res.write(piece)) {
      // Let the event loop breathe so an abort or a close is seen.
      await sleep(0);
      continue;
    }
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      res.once('drain', done);
      res.once('close', done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** The model and prompt of a chat or responses request, read when a fault takes the request over. */
async function requestSummary(req: IncomingMessage): Promise<{ model: string; prompt: string }> {
  try {
    const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
    const last = messages.at(-1)?.content ?? body.input;
    return {
      model: typeof body.model === 'string' ? body.model : 'openai/gpt-4o-mini',
      prompt: typeof last === 'string' ? last : '',
    };
  } catch {
    return { model: 'openai/gpt-4o-mini', prompt: '' };
  }
}

/**
 * The routing service's moderation 403, as users pasted it from live calls
 * (`<model> requires moderation on <provider>. Your input was flagged for "…"`)
 * with the documented metadata (errors-and-debugging.mdx: reasons, flagged_input,
 * provider_name, model_slug).
 */
function moderation(
  res: ServerResponse,
  model: string,
  prompt: string,
  provider = 'OpenAI',
  reasons = ['violence'],
): void {
  sendJson(res, 403, {
    error: {
      code: 403,
      message: `${model} requires moderation on ${provider}. Your input was flagged for "${reasons.join(', ')}". No credits were charged.`,
      metadata: { reasons, flagged_input: prompt.slice(0, 100), provider_name: provider, model_slug: model },
    },
  });
}

/** The caller's key in the field the fault names, in the service's own shape. */
function echoKey(fault: FaultSpec, service: Service, req: IncomingMessage, res: ServerResponse): void {
  const token = bearerToken(req) ?? '';
  const field = fault.field ?? 'message';
  const streamed = String(req.headers.accept ?? '').includes('text/event-stream');
  if (field === 'title') return html(res, 502, `502 Bad Gateway for ${token}`);
  if (service === 'direct') {
    if (field === 'code') return directError(res, 400, 'Invalid request.', 'invalid_request_error', token);
    if (field === 'stream') {
      if (!streamed)
        return sendJson(res, 200, {
          id: 'resp_echo',
          object: 'response',
          status: 'failed',
          error: { code: 'server_error', message: `Upstream failed for ${token}` },
          output: [],
        });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type: string, fields: Record<string, unknown>, n: number) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: n })}\n\n`;
      res.write(
        event(
          'response.output_text.delta',
          { item_id: 'msg_echo', output_index: 0, content_index: 0, delta: 'Hello', logprobs: [] },
          0,
        ),
      );
      res.write(
        event(
          'error',
          { error: { type: 'server_error', code: token, message: `Upstream failed for ${token}`, param: null } },
          1,
        ),
      );
      return void res.end(
        event(
          'response.failed',
          {
            response: {
              id: 'resp_echo',
              status: 'failed',
              error: { code: token, message: `Upstream failed for ${token}` },
              output: [],
            },
          },
          2,
        ),
      );
    }
    return directError(res, 401, `Incorrect API key provided: ${token}.`, 'invalid_request_error', 'invalid_api_key');
  }
  switch (field) {
    case 'label':
      return sendJson(res, 200, {
        data: {
          label: token,
          limit: null,
          limit_remaining: null,
          limit_reset: null,
          usage: 0,
          usage_daily: 0,
          is_free_tier: false,
          is_management_key: false,
          expires_at: null,
        },
      });
    case 'code':
      return sendJson(res, 401, { error: { code: token, message: 'User not found.' } });
    case 'reason':
      return sendJson(res, 402, {
        error: {
          code: 402,
          message: 'Payment required.',
          metadata: { reason: token, limit_source: 'openrouter_credits' },
        },
      });
    case 'raw':
      return sendJson(res, 429, {
        error: {
          code: 429,
          message: 'Provider returned error',
          metadata: { raw: `upstream said: ${token}`, provider_name: 'Venice' },
        },
      });
    case 'provider':
      return moderation(res, token, token, token, [token]);
    case 'stream': {
      const error = {
        code: 502,
        message: `Provider disconnected for ${token}`,
        metadata: { raw: token, provider_name: token },
      };
      if (!streamed) return sendJson(res, 200, { error, user_id: 'user_echo' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'gen-echo', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }] })}\n\n`,
      );
      return void res.end(
        `data: ${JSON.stringify({ id: 'gen-echo', object: 'chat.completion.chunk', error, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })}\n\n`,
      );
    }
    default:
      return sendJson(res, 401, { error: { code: 401, message: `Invalid API key: ${token}` } });
  }
}

/** Applies a fault that strikes before the service; true when it took the response over. */
export async function strikeEarly(
  fault: FaultSpec,
  service: Service,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (fault.shouldRetry !== undefined || fault.kind === 'should_retry')
    res.setHeader('x-should-retry', String(fault.shouldRetry ?? false));
  switch (fault.kind) {
    case 'http500':
      req.resume();
      if (service === 'router') sendJson(res, 500, { error: { code: 500, message: 'Internal Server Error' } });
      else
        directError(
          res,
          500,
          'The server had an error while processing your request. Sorry about that!',
          'server_error',
          null,
        );
      return true;
    case 'http502_html':
      req.resume();
      html(res, 502, '502 Bad Gateway');
      return true;
    case 'reset':
    case 'stall':
      if (!fault.beforeHeaders) return false;
      req.resume();
      if (fault.kind === 'reset') res.socket?.resetAndDestroy();
      // A stall before headers holds the connection until the client gives up.
      return true;
    case 'echo_key':
      req.resume();
      echoKey(fault, service, req, res);
      return true;
    case 'moderation': {
      if (service !== 'router') return false;
      const { model, prompt } = await requestSummary(req);
      moderation(res, model, prompt);
      return true;
    }
    case 'region':
      if (service !== 'direct') return false;
      req.resume();
      // The body users paste from live calls (home-assistant/core#120072, continuedev/continue#11449).
      directError(
        res,
        403,
        'Country, region, or territory not supported',
        'request_forbidden',
        'unsupported_country_region_territory',
      );
      return true;
    case 'redirect': {
      req.resume();
      const body = '<html><body>Moved</body></html>';
      res.writeHead(fault.status ?? 307, {
        location: fault.location ?? `https://moved.example.invalid${req.url ?? '/'}`,
        'content-type': 'text/html',
        'content-length': String(body.length),
      });
      res.end(body);
      return true;
    }
    case 'rate_limit': {
      req.resume();
      const seconds = fault.retryAfter ?? 1;
      const headers: Record<string, string> = seconds > 0 ? { 'retry-after': String(seconds) } : {};
      // Each service's own 429 body (wire facts: the direct service's `type` names the limit that ran out).
      if (service === 'router') sendJson(res, 429, { error: { code: 429, message: 'Rate limit exceeded' } }, headers);
      else
        sendJson(
          res,
          429,
          {
            error: {
              message: `Rate limit reached for requests. Please try again in ${seconds}s.`,
              type: 'requests',
              param: null,
              code: 'rate_limit_exceeded',
            },
          },
          headers,
        );
      return true;
    }
    case 'slow_headers':
      await sleep(fault.delayMs ?? 1000, clientGone(req, res));
      return false;
    case 'endless_body': {
      req.resume();
      const signal = clientGone(req, res);
      res.writeHead(fault.status ?? 500, { 'content-type': 'application/json' });
      res.write('{"error":{"code":500,"message":"');
      await pump(res, 'x'.repeat(64 * 1024), signal);
      return true;
    }
    default:
      return false;
  }
}
