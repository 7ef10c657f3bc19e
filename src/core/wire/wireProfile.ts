// What a wire client knows of its service: its id, wire family, endpoints and capabilities. The service's module
// passes its descriptor in (services/<id>.ts), which extends this, so the wire floor imports no descriptor and the
// arrows between core's floors point one way (test/lint/coreFloors.test.ts).
import type { ServiceId } from '../../shared/serviceIds.ts';

/** The request format: OpenAI's chat completions, or its Responses API. */
export type WireFamily = 'chat-completions' | 'responses';

export interface ServiceCapabilities {
  /** `:free` models with per-minute and per-day limits. */
  hasFreeModels: boolean;
  /** Prepaid credits and per-key credit limits that can be read. */
  hasCredits: boolean;
  /** The service may be used without any key (a local server). */
  keyOptional: boolean;
  /** Usage tiers that set the rate limits. */
  hasUsageTier: boolean;
  /** Restricted keys whose missing scopes errors name. */
  hasScopes: boolean;
  /** The `provider.data_collection: "deny"` training opt-out. */
  hasDataCollectionOptOut: boolean;
  /** A conversation continues from a stored response (`previous_response_id`). */
  chainsResponses: boolean;
  /** The model list carries prices per token. */
  hasModelPrices: boolean;
  /** Streams report usage only when asked (`stream_options.include_usage`), as OpenAI's spec has it. */
  streamUsageOnRequest: boolean;
}

export interface ServiceEndpoints {
  chat: '/chat/completions' | '/responses';
  keyCheck: string | null;
  models: string | null;
  credits: string | null;
}

export interface WireProfile {
  id: ServiceId;
  wire: WireFamily;
  endpoints: ServiceEndpoints;
  capabilities: ServiceCapabilities;
}
