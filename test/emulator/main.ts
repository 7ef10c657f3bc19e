// `npm run emulator -- [--port N] [--host H] [--token-delay MS] [--tokens N]`
// Starts the emulator with its seeded sandbox and prints one JSON line.
import { parseArgs } from 'node:util';
import { startEmulator } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'token-delay': { type: 'string', default: '25' },
    tokens: { type: 'string', default: '40' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write('usage: npm run emulator -- [--port N] [--host 127.0.0.1] [--token-delay MS] [--tokens N]\n');
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`emulator: --port must be a port number, got ${values.port}\n`);
  process.exit(2);
}
const emulator = await startEmulator({
  port,
  host: values.host,
  sandbox: true,
  config: { tokenDelayMs: Number(values['token-delay']), answerTokens: Number(values.tokens) },
});
process.stdout.write(
  JSON.stringify({
    router: { baseUrl: emulator.routerBaseUrl },
    direct: { baseUrl: emulator.directBaseUrl },
    compatible: { baseUrl: emulator.compatibleBaseUrls.open, keyedBaseUrl: emulator.compatibleBaseUrls.keyed },
    admin: emulator.adminUrl,
    keys: emulator.sandbox!.keys,
  }) + '\n',
);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
