// A small typed client for the emulator's admin API and raw service calls, for tests.
import { type Emulator, startEmulator, type EmulatorOptions } from './server.ts';

export interface TestBed {
  emulator: Emulator;
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  router(
    path: string,
    key: string | undefined,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  direct(
    path: string,
    key: string | undefined,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestBed(options: EmulatorOptions = {}): Promise<TestBed> {
  const emulator = await startEmulator(options);
  const call =
    (base: string) =>
    (
      path: string,
      key: string | undefined,
      init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) =>
      fetch(base + path, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...init.headers,
        },
        ...(init.body === undefined
          ? {}
          : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
      });
  return {
    emulator,
    async admin(method, path, body) {
      const response = await fetch(emulator.adminUrl + path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${String(json.error)}`);
      return json as never;
    },
    router: call(emulator.routerBaseUrl),
    direct: call(emulator.directBaseUrl),
    close: () => emulator.close(),
  };
}

/** Parses an SSE body into its data payloads (comments and [DONE] dropped). */
export function sseData(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((frame) =>
      frame
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6)),
    )
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as unknown);
}

export const userMessage = (content: string) => [{ role: 'user', content }];
