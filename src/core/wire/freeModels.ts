// Which of the routing service's models cost nothing: read by the spend cap, the picker's order and the chat's
// accounting as well as the client, so it lives apart from the client (which is loaded on the first request).
import { defaultModel } from '../../shared/serviceIds.ts';

/** The routing service's free router: it picks a free model, and costs nothing. */
export const FREE_ROUTER_MODEL = defaultModel('router');

export function isFreeModelId(id: string): boolean {
  return id === FREE_ROUTER_MODEL || id.endsWith(':free');
}
