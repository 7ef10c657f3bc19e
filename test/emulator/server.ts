// The emulator of both services on one loopback port:
//   /router/api/v1/...  the routing service
//   /direct/v1/...      the direct model service
//   /compatible/v1/...  an OpenAI-compatible server (and -keyed, -bare: compatibleService.ts)
//   /__admin/...        state, settings-page actions, clock and faults
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin.ts';
import { EmulatorClock } from './clock.ts';
import { COMPATIBLE_PREFIXES, type CompatibleMode, CompatibleState, handleCompatible } from './compatibleService.ts';
import { handleDirect } from './directService.ts';
import { DirectState } from './directState.ts';
import { FaultQueue, type FaultSpec } from './faults.ts';
import { strikeEarly } from './faultsEarly.ts';
import { sendJson } from './http.ts';
import { type ServiceConfig, handleRouter } from './routerService.ts';
import { RouterState } from './routerState.ts';
import { AUTH_PAGE_PATH, handleAuthPage } from './routerAuth.ts';
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
  /** OpenAI-compatible base URLs: no key needed, key required, and without GET /models. */
  readonly compatibleBaseUrls: Record<CompatibleMode, string>;
  readonly adminUrl: string;
  readonly clock: EmulatorClock;
  readonly router: RouterState;
  readonly direct: DirectState;
  readonly compatible: CompatibleState;
  readonly faults: FaultQueue;
  readonly config: ServiceConfig;
  sandbox: Sandbox | undefined;
  /** Every service request since the last reset (admin calls excluded): a test can prove where a key went. */
  readonly requests: ServiceRequest[];
  close(): Promise<void>;
}

export interface ServiceRequest {
  service: 'router' | 'direct';
  method: string;
  /** The path below the service's base URL. */
  path: string;
  /** The bearer token sent, if any. */
  key: string | undefined;
  /** The JSON body of a chat or responses request, as the service read it: a test proves what was sent. */
  body?: Record<string, unknown>;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  tokenDelayMs: 0,
  answerTokens: 12,
  inFlightRetryAfterSeconds: 2,
  missingScopesStatus: 401,
};

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = new EmulatorClock();
  const now = () => clock.now();
  const config: ServiceConfig = { ...DEFAULT_CONFIG, ...options.config };
  const faults = new FaultQueue();
  let router = new RouterState(now);
  let direct = new DirectState(now);
  const compatible = new CompatibleState();

  const emulator = {
    compatible,
    clock,
    faults,
    config,
    sandbox: undefined as Sandbox | undefined,
    requests: [] as ServiceRequest[],
    get router() {
      return router;
    },
    get direct() {
      return direct;
    },
  } as Emulator & {
    url: string;
    routerBaseUrl: string;
    directBaseUrl: string;
    compatibleBaseUrls: Record<CompatibleMode, string>;
    adminUrl: string;
    close(): Promise<void>;
  };

  const reset = (sandbox: boolean) => {
    router = new RouterState(now);
    direct = new DirectState(now);
    faults.clear();
    emulator.requests.length = 0;
    clock.reset();
    Object.assign(config, DEFAULT_CONFIG, options.config);
    emulator.sandbox = sandbox ? seedSandbox(router, direct, now) : undefined;
    return { reset: true, sandbox: emulator.sandbox ?? null };
  };
  if (options.sandbox) emulator.sandbox = seedSandbox(router, direct, now);

  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    void dispatch(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { code: 500, message: `emulator error: ${(error as Error).message}` } });
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
      return handleAdmin(
        { router, direct, clock, faults, config, compatible, reset, requests: () => emulator.requests },
        req,
        res,
        path.slice(ADMIN_PREFIX.length),
      );
    }
    if (path === AUTH_PAGE_PATH || path.startsWith(AUTH_PAGE_PATH + '/'))
      return handleAuthPage({ state: router, now }, req, res);
    const mode = (Object.keys(COMPATIBLE_PREFIXES) as CompatibleMode[]).find((m) =>
      path.startsWith(COMPATIBLE_PREFIXES[m] + '/'),
    );
    if (mode)
      return handleCompatible(
        { state: compatible, config, now },
        mode,
        req,
        res,
        path.slice(COMPATIBLE_PREFIXES[mode].length),
      );
    const service = path.startsWith(ROUTER_PREFIX + '/')
      ? 'router'
      : path.startsWith(DIRECT_PREFIX + '/')
        ? 'direct'
        : undefined;
    if (!service) return sendJson(res, 404, { error: { code: 404, message: `Not Found: ${path}` } });
    const sub = path.slice((service === 'router' ? ROUTER_PREFIX : DIRECT_PREFIX).length);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const recorded: ServiceRequest = { service, method: req.method ?? '', path: sub, key: bearer };
    const record = (body: Record<string, unknown>) => void (recorded.body = body);
    emulator.requests.push(recorded);
    // A long sandbox session must not grow without bound.
    if (emulator.requests.length > 1000) emulator.requests.shift();
    let fault: FaultSpec | undefined;
    try {
      fault = faults.take(req, service, sub);
    } catch (error) {
      return sendJson(res, 400, { error: { code: 400, message: (error as Error).message } });
    }
    if (fault && (await strikeEarly(fault, service, req, res))) return;
    if (service === 'router') return handleRouter({ state: router, config, now, record }, req, res, sub, fault);
    return handleDirect({ state: direct, config, now, record }, req, res, sub, fault);
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
    compatibleBaseUrls: {
      open: url + COMPATIBLE_PREFIXES.open,
      keyed: url + COMPATIBLE_PREFIXES.keyed,
      bare: url + COMPATIBLE_PREFIXES.bare,
      strict: url + COMPATIBLE_PREFIXES.strict,
    },
    adminUrl: url + ADMIN_PREFIX,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
  return emulator;
}
