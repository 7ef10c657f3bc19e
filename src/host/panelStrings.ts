// Every string the panel shows, localised on the host and handed to the webview.
import * as vscode from 'vscode';
import { errorKindStrings } from './errorKindStrings.ts';

const t = vscode.l10n.t;

export function panelStrings(): Record<string, string> {
  return {
    title: t('Keyward'), service: t('Service'), router: t('Routing service'), direct: t('Direct service'),
    searchModels: t('Search models'), model: t('Model'), free: t('free'), refreshModels: t('Refresh the model list'),
    typeModel: t('This key may not list models; type a model id:'), noKey: t('No key is stored for this service.'),
    setKey: t('Set key'), verifyKey: t('Verify key'), conversation: t('Conversation'),
    empty: t('Ask a question, or use "Keyward: Ask About Selection" in an editor.'), attachments: t('Attached code'),
    placeholder: t('Ask… (Ctrl+Enter to send)'), prompt: t('Prompt'), send: t('Send'), stop: t('Stop'),
    export: t('Export'), clear: t('Clear'), removeAttachment: t('Remove'), loadingModels: t('Loading models…'),
    variablePrice: t('variable price'), perMillion: t('per M tokens'), you: t('You'), tokens: t('tokens'),
    freeToday: t('free today'), interrupted: t('The answer broke off here; what arrived is kept.'), stopped: t('Stopped.'),
    copy: t('Copy'), insert: t('Insert at cursor'), replace: t('Replace selection'), below: t('Insert below selection'),
    addCredits: t('Add credits'), openBilling: t('Open billing'), raiseLimit: t('Raise the key limit'), openLimits: t('Open limits'),
    resetsAt: t('The free allowance resets at'), resendPaid: t('Resend to the paid model'),
    waiting: t('The service asked to wait;'), retryingIn: t('trying again in'),
    'wait.in_flight_budget': t('Requests still running use up the balance;'), 'wait.free_limit_minute': t('Free models allow 20 requests a minute;'),
    'wait.rate_limit': t('Rate limited;'), 'wait.server': t('The service had a problem;'), 'wait.network': t('The connection failed;'),
    ...errorKindStrings(),
    declined: t('The model declined'), 'finish.length': t('Cut off at the token limit.'),
    'finish.content_filter': t('Filtered by the provider: the rest of the answer was withheld.'),
    'finish.content_filter.empty': t('Filtered by the provider: its content filter withheld the whole answer.'),
    resetsAtUtc: t('The free allowance resets at 00:00 UTC.'), missingScopes: t('This key lacks:'), openKeys: t('Open the keys page'),
    'scope.api.responses.write': t('create responses (send prompts)'), 'scope.api.model.read': t('list models'), 'scope.model.request': t('make requests to models'),
  };
}
