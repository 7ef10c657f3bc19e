// The two wire clients (the Responses API and chat completions, with their streaming, retries, error mapping and
// transport), which a service module's open() loads on the first client it makes. esbuild.js (ON_DEMAND) builds
// this file as dist/wireClients.js: activation parses none of it, and the status bar's first key check, which
// waits on the network anyway, waits for this file too (bench/bundle.ts). The CLI and the tests import it inline.
export { ResponsesClient } from './responsesClient.ts';
export { ChatCompletionsClient } from './chatCompletionsClient.ts';
// The routing service's sign-in code exchange (keys/codeExchange.ts) needs the same transport: it loads with them.
export { exchangeCode } from '../keys/codeExchange.ts';
