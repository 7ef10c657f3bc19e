// What a request may cost at most, reserved against the daily cap before it is sent (spendLedger.ts) and settled
// with the cost the service reports after. An upper bound where the model list allows one: a token is at least one
// byte in the byte-level tokenizers the services use, so the bytes sent bound the input tokens, and the output is
// bounded by the request's own limit or the model's. Unknown (Infinity) when the list gives no price or no output
// limit: the ledger then holds all that is left below the cap.
import type { ModelOption } from '../../shared/protocol.ts';

export function estimateCostUsd(
  model: Pick<ModelOption, 'inputPerMillion' | 'outputPerMillion' | 'maxOutputTokens' | 'contextLength'> | undefined,
  sentBytes: number,
  askedMaxOutput: number | undefined,
): number {
  if (!model || model.inputPerMillion === null || model.outputPerMillion === null) return Number.POSITIVE_INFINITY;
  const output = askedMaxOutput ?? model.maxOutputTokens ?? model.contextLength ?? Number.POSITIVE_INFINITY;
  return (sentBytes * model.inputPerMillion + output * model.outputPerMillion) / 1e6;
}
