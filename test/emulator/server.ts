// The emulator of both services on one loopback port:
//   /router/api/v1/...  the routing service
//   /direct/v1/...      the direct model service
//   /__admin/...        state, settings-page actions, clock and faults
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin.ts';
import { EmulatorClock } from './clock.ts';
import { directError, handleDirect } from './directService.ts';
import { DirectState } from './directState.ts';
import { FaultQueue, type FaultSpec } from './faults.ts';
import { sendJson } from './http.ts';
import { type ServiceConfig, handleRouter } from './routerService.ts';
import { RouterState } from './routerState.ts';
import { type Sandbox, seedSandbox } from './sandbox.ts';

export const ROUTER_PREFIX = '/router/api/v1';
export const DIRECT_PREFIX = '/direct/v1';
export const ADMIN_PREFIX = '/__admin';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Seed the sandbox accounts on start (and on reset with sandbox: true). */
  sandbox?: boolean;
  config?: Partial<ServiceConfig>;
}

export interface Emulator {
  readonly url: string;
  readonly routerBaseUrl: string;
  readonly directBaseUrl: string;
  readonly adminUrl: string;
  readonly clock: EmulatorClock;
  readonly router: RouterState;
  readonly direct: DirectState;
  readonly faults: FaultQueue;
  readonly config: ServiceConfig;
  sandbox: Sandbox | undefined;
  close(): Promise<void>;
}

export const DEFAULT_CONFIG: ServiceConfig = { tokenDelayMs: 0, answerTokens: 12, inFlightRetryAfterSeconds: 2, missingScopesStatus: 401 };

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = new EmulatorClock();
  const now = () => clock.now();
  const config: ServiceConfig = { ...DEFAULT_CONFIG, ...options.config };
  const faults = new FaultQueue();
  let router = new RouterState(now);
  let direct = new DirectState(now);

  const emulator = {
    clock, faults, config, sandbox: undefined as Sandbox | undefined,
    get router() { return router; },
    get direct() { return direct; },
  } as Emulator & { url: string; routerBaseUrl: string; directBaseUrl: string; adminUrl: string; close(): Promise<void> };

  const reset = (sandbox: boolean) => {
    router = new RouterState(now);
    direct = new DirectState(now);
    faults.clear();
    clock.reset();
    Object.assign(config, DEFAULT_CONFIG, options.config);
    emulator.sandbox = sandbox ? seedSandbox(router, direct, now) : undefined;
    return { reset: true, sandbox: emulator.sandbox ?? null };
  };
  if (options.sandbox) emulator.sandbox = seedSandbox(router, direct, now);

  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    void dispatch(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: `emulator error: ${(error as Error).message}` } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://emulator').pathname;
    if (path.startsWith(ADMIN_PREFIX + '/')) {
      return handleAdmin({ router, direct, clock, faults, config, reset }, req, res, path.slice(ADMIN_PREFIX.length));
    }
    const service = path.startsWith(ROUTER_PREFIX + '/') ? 'router' : path.startsWith(DIRECT_PREFIX + '/') ? 'direct' : undefined;
    if (!service) return sendJson(res, 404, { error: { code: 404, message: `Not Found: ${path}` } });
    const sub = path.slice((service === 'router' ? ROUTER_PREFIX : DIRECT_PREFIX).length);
    let fault: FaultSpec | undefined;
    try {
      fault = faults.take(req, service, sub);
    } catch (error) {
      return sendJson(res, 400, { error: { code: 400, message: (error as Error).message } });
    }
    if (fault && (await strikeEarly(fault, service, req, res))) return;
    if (service === 'router') return handleRouter({ state: router, config, now }, req, res, sub, fault);
    return handleDirect({ state: direct, config, now }, req, res, sub, fault);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  Object.assign(emulator, {
    url,
    routerBaseUrl: url + ROUTER_PREFIX,
    directBaseUrl: url + DIRECT_PREFIX,
    adminUrl: url + ADMIN_PREFIX,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  });
  return emulator;
}

/** Faults that strike before the service looks at the request at all. */
async function strikeEarly(fault: FaultSpec, service: 'router' | 'direct', req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const takesOver = fault.kind === 'http500' || fault.kind === 'http502_html' || ((fault.kind === 'reset' || fault.kind === 'stall') && fault.beforeHeaders);
  if (takesOver) req.resume();
  switch (fault.kind) {
    case 'http500':
      if (service === 'router') sendJson(res, 500, { error: { code: 500, message: 'Internal Server Error' } });
      else directError(res, 500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null);
      return true;
    case 'http502_html': {
      const html = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n';
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(html)) });
      res.end(html);
      return true;
    }
    case 'reset':
    case 'stall':
      if (!fault.beforeHeaders) return false;
      if (fault.kind === 'reset') res.socket?.resetAndDestroy();
      // A stall before headers holds the connection until the client gives up.
      return true;
    default:
      return false;
  }
}
