// What the e2e runner tells the in-host tests: the emulator and the workspace.
import * as vscode from 'vscode';

export interface E2eEnv {
  emulator: { routerBaseUrl: string; directBaseUrl: string; adminUrl: string };
  sandboxKeys: { routerFunded: string; routerFree: string; direct: string };
  workspace: { folder: string; files: Record<string, string> };
}

export function e2eEnv(): E2eEnv {
  const raw = process.env.KEYWARD_E2E;
  if (!raw) throw new Error('KEYWARD_E2E is not set: run the in-host suite through npm run test:e2e');
  return JSON.parse(raw) as E2eEnv;
}

export const EXTENSION_ID = 'keyward.keyward';

export async function activateKeyward(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  await extension.activate();
  return extension;
}

export async function admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(e2eEnv().emulator.adminUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${json.error ?? ''}`);
  return json;
}
