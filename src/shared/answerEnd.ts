/**
 * Why an answer ended, in the same words for both services: the routing
 * service's normalised `finish_reason` values, which the direct service's
 * `status` / `incomplete_details.reason` map onto. `keyward ask --json` prints
 * them as `finishReason`, so the names never change; `other` holds anything a
 * service may add later.
 */
export const FINISH_REASONS = ['stop', 'length', 'content_filter', 'tool_calls', 'error', 'other'] as const;

export type FinishReason = (typeof FINISH_REASONS)[number];
