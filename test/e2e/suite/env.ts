// What the e2e runner tells the in-host tests: the emulator and the workspace.
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { DialogProbe } from '../../../src/host/dialogProbe.ts';
import { ACCOUNT_KEY_SERVICES } from '../../../src/core/keys/keyStore.ts';

export interface E2eEnv {
  emulator: { routerBaseUrl: string; directBaseUrl: string; adminUrl: string };
  sandboxKeys: { routerFunded: string; routerFree: string; direct: string };
  workspace: { folder: string; files: Record<string, string>; keys: Record<string, string> };
  /** This run's folder (user data, browser profile, workspace). */
  runDir: string;
  /** Keys listed here are looked for on disk after the run: none may be found. */
  leakKeysFile: string;
}

/** The ceiling of every wait: waits follow state, and a busy 2-core machine can take minutes. */
export const PATIENCE = 300_000;

/** Polls `probe` until it gives a value, for at most `ceilingMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ceilingMs = PATIENCE,
): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(ceilingMs / 1000)} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A key the test hands Keyward: the run's leak check makes sure it never reaches disk outside the workspace. */
export function leakKey(key: string): string {
  appendFileSync(e2eEnv().leakKeysFile, `${key}\n`);
  return key;
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

/**
 * No management or admin key stored: a suite that counts a found key's quick fixes starts from the fixes a workspace
 * without one offers (with one, Disable now comes first), whatever the UI steps before it left in the shared profile.
 */
export async function withoutAccountKeys(): Promise<void> {
  for (const service of ACCOUNT_KEY_SERVICES)
    await vscode.commands.executeCommand('keyward.removeAccountKey', service, true);
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

/**
 * Answers the language models' access question (the host refuses modal dialogs) with Allow, or Don't Allow, through
 * the test API's dialogs; every other question gets no answer. `asked` gets the extension each question names.
 */
export function answerModelAccess(dialogs: DialogProbe, allow: boolean, asked?: string[]): void {
  dialogs.answer = async (message, _detail, ...items) => {
    const named = /^(.*) wants to use Keyward’s language models\.$/.exec(message);
    if (!named) return undefined;
    asked?.push(named[1]!);
    return allow ? items[0] : items[1];
  };
}
