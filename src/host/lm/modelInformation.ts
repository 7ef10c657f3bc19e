// What VS Code shows of a model Keyward offers: its limits from the service's list, its family, and a tooltip that
// says what the list did not. Built with the request handling (dist/lmRequests.js), which the provider
// (chatProvider.ts) loads once a service has a model list to offer: activation registers the provider without it.
import * as vscode from 'vscode';
import { modelFamily } from '../../core/lm/modelFamily.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { tokenCounting } from '../../shared/tokenCount.ts';
import type { KeywardModelInformation } from './providerTypes.ts';

/**
 * What a list does not say (the direct service's gives ids only): a window every current model of the services
 * exceeds, said in the model's tooltip. An older model with a smaller one (gpt-4's 8,192) fails loud with the
 * service's context-length error rather than being trimmed in silence.
 */
const UNKNOWN_CONTEXT = 32_768;
const UNKNOWN_OUTPUT = 4_096;

/**
 * The model's limits from its list, and the tooltip, which says when the list gave no context window and when its
 * token counts are an estimate (no tokenizer Keyward has measured within 10 % for its family: shared/tokenCount.ts).
 */
function limitsOf(m: ModelOption, service: string) {
  const maxInputTokens = m.contextLength ?? UNKNOWN_CONTEXT;
  const maxOutputTokens = m.maxOutputTokens ?? UNKNOWN_OUTPUT;
  const notes: string[] = [];
  if (!m.contextLength)
    notes.push(
      vscode.l10n.t(
        'The model list gives no context window: Keyward assumes {0} tokens in, {1} out.',
        maxInputTokens,
        maxOutputTokens,
      ),
    );
  if (!tokenCounting(m.id).measured)
    notes.push(vscode.l10n.t("Token counts are an estimate: Keyward knows no tokenizer for this model's family."));
  const about = vscode.l10n.t('{0} on {1}, through Keyward', m.id, service);
  const tooltip = notes.length === 0 ? about : `${about}. ${notes.join(' ')}`;
  return { maxInputTokens, maxOutputTokens, tooltip };
}

/** One service's models as VS Code lists them; `detail` is the service's label. */
export function modelInformation(
  service: ServiceId,
  models: readonly ModelOption[],
  detail: string,
): KeywardModelInformation[] {
  return models.map((m) => ({
    id: `${service}/${m.id}`,
    service,
    model: m.id,
    name: m.name,
    // The model's own family (gpt-4o-mini), as VS Code and extensions select by it; the service is in the id.
    family: modelFamily(m.id),
    version: m.id,
    detail,
    ...limitsOf(m, detail),
    capabilities: { toolCalling: m.toolCalling === true, imageInput: m.imageInput === true },
  }));
}
