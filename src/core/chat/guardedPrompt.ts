// The one way a prompt leaves: the secret guard, then the daily spend cap, then the prompt, then its cost recorded.
// The chat (host/chat/chatSend.ts), the language-model provider (host/lm/lmRequests.ts) and `keyward ask`
// (cli/ask.ts) each pass what differs: how the person is asked (a modal, an error to another extension, a flag),
// and where the cost goes (the chat's ledger, a reservation, nowhere). What they share is the order and the promise:
// the prompt step only ever sees what the guard let through, and a hold on today's spend is settled with what the
// service reported or released when nothing was charged, whether the answer ends, fails or is stopped.
import type { Reservation } from '../account/spendReservation.ts';
import { type KeyStore, type UnreadKey, scannerKeys } from '../keys/keyStore.ts';
import type { ReportedUsage } from '../wire/textStream.ts';

/** Why a prompt did not leave: the cap held it back before anything was asked, or the guard (or the cap) said no. */
export type NotSent = 'held_back' | 'guarded' | 'capped';

export type GuardedOutcome<R> = { sent: true; result: R } | { sent: false; why: NotSent };

export interface GuardedPromptSteps<G, R extends { costUsd: number | null }> {
  /**
   * Before the guard reads the prompt: true when a cap already reached holds it back and the caller asks the person
   * itself (the chat's card), so a prompt that will not go now is not asked about twice.
   */
  heldBack?(): boolean;
  /** The secret guard: what may be sent (keys redacted where the person agreed), or undefined when nothing may. */
  guard(): Promise<G | undefined>;
  /** The spend cap on what the guard let through: a hold on today's spend, undefined when nothing is counted. */
  reserve?(guarded: G): Reservation | 'refused' | undefined;
  /** The prompt itself, sent with what the guard returned; `onReported` hears what a broken answer was charged. */
  prompt(guarded: G, onReported: (usage: ReportedUsage) => void): Promise<R>;
}

/** Runs the steps in order; a prompt step that throws settles or releases the hold, then the error goes on. */
export async function runGuardedPrompt<G, R extends { costUsd: number | null }>(
  steps: GuardedPromptSteps<G, R>,
): Promise<GuardedOutcome<R>> {
  if (steps.heldBack?.()) return { sent: false, why: 'held_back' };
  const guarded = await steps.guard();
  if (guarded === undefined) return { sent: false, why: 'guarded' };
  const hold = steps.reserve?.(guarded);
  if (hold === 'refused') return { sent: false, why: 'capped' };
  let reported: ReportedUsage | undefined;
  try {
    const result = await steps.prompt(guarded, (usage) => {
      reported = usage;
    });
    void hold?.settle(result.costUsd);
    return { sent: true, result };
  } catch (error) {
    // What a stopped or broken answer was charged still counts toward the cap.
    if (reported) void hold?.settle(reported.costUsd);
    else hold?.release();
    throw error;
  }
}

/** What the guard compares a prompt with: the stored keys by value, and the ones that could not be read. */
export type GuardKeys = Awaited<ReturnType<typeof scannerKeys>> | GuardKeysUnread;

interface GuardKeysUnread {
  known: [];
  retired: [];
  unread: { service: undefined; reason: string }[];
}

/** The stored keys for the guard; a store that cannot be read at all is one unread entry, so the guard fails closed. */
export async function guardKeys(store: KeyStore): Promise<GuardKeys> {
  return scannerKeys(store).catch((error: unknown): GuardKeysUnread => ({
    known: [],
    retired: [],
    unread: [{ service: undefined, reason: (error as Error)?.message ?? String(error) }],
  }));
}

/** Why the stored keys could not be read, each reason once; undefined when all were read. */
export function unreadReason(keys: { unread: readonly (UnreadKey | { reason: string })[] }): string | undefined {
  return keys.unread.length > 0 ? [...new Set(keys.unread.map((u) => u.reason))].join('; ') : undefined;
}

/** A hold that only records: the chat's answers are counted after they end, nothing is reserved before. */
export function recordOnly(record: (costUsd: number | null | undefined) => Promise<void>): Reservation {
  return { settle: record, release: () => undefined };
}
