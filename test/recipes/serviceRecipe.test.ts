// CONTRIBUTING.md "Add a service". A service with behaviour of its own is its module (src/core/services/<id>.ts,
// with its descriptor in <id>Descriptor.ts) and one line in each registry; a hosted OpenAI-compatible one (Groq,
// Together, a company gateway) is only its descriptor file and a line in the descriptors' registry, with its id and
// default model in src/shared/serviceIds.ts: three files in src/ (continuedev/continue adds Groq as a 31-line subclass
// and one registry line, core/llm/llms/Groq.ts). These tests add one the way CONTRIBUTING says, count the files, and
// run what they built.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_IDS } from '../../src/shared/serviceIds.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { answerText } from '../emulator/answers.ts';
import { COMPILE_MS, filesFlaggedAfter, withScratchSrc } from './scratchCompile.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const CONTRIBUTING = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** SERVICE_IDS with one more id, whatever ids it holds today. */
function withId(id: string, defaultModel: string) {
  return (text: string) => {
    const list = /export const SERVICE_IDS = \[([^\]]*)\] as const;/;
    expect(text).toMatch(list);
    return text
      .replace(list, (_all, ids: string) => `export const SERVICE_IDS = [${ids}, '${id}'] as const;`)
      .replace(/(const DEFAULT_MODELS = \{\n)/, `$1  ${id}: '${defaultModel}',\n`);
  };
}

/** A hosted gateway's descriptor, as CONTRIBUTING's step 2 writes it. */
const GATEWAY_DESCRIPTOR = `import { STATUS_PRIORITY, type ServiceDescriptor } from './descriptor.ts';

export const gatewayDescriptor = {
  id: 'gateway',
  displayName: 'company gateway',
  label: 'Company gateway',
  shortLabel: 'Gateway',
  cliHelp: { about: "the company's OpenAI-compatible gateway", status: 'whether the gateway answers and lists models' },
  commandWord: 'Gateway',
  wire: 'chat-completions',
  errorDialect: 'openai',
  module: 'openai-compatible',
  defaultBaseUrl: 'https://gateway.example/v1',
  settings: { baseUrl: 'keyward.gateway.baseUrl', name: null },
  env: { key: 'KEYWARD_GATEWAY_API_KEY', baseUrl: 'KEYWARD_GATEWAY_BASE_URL' },
  secretSlot: 'keyward.key.gateway',
  keyLabel: 'Gateway key',
  keyPlaceholder: '',
  keyPrompt: "Paste your gateway key. It is kept in VS Code's secret storage only.",
  secretlintRules: [],
  unverifiableKey: null,
  keyShape: null,
  endpoints: { chat: '/chat/completions', keyCheck: '/models', models: '/models', credits: null },
  pages: { keys: null, credits: null },
  configured: () => ({ baseUrl: 'https://gateway.example/v1', pages: { keys: null, credits: null }, givenName: '' }),
  statusBar: { id: 'gateway', name: 'Keyward: company gateway', priority: STATUS_PRIORITY + 0.02, shown: 'always' },
  commands: {
    setKey: 'keyward.setGatewayKey',
    verifyKey: 'keyward.verifyGatewayKey',
    rotateKey: 'keyward.rotateGatewayKey',
    deleteKey: 'keyward.deleteGatewayKey',
    actions: 'keyward.gatewayActions',
  },
  capabilities: {
    hasFreeModels: false,
    hasCredits: false,
    keyOptional: false,
    hasUsageTier: false,
    hasScopes: false,
    hasDataCollectionOptOut: false,
    chainsResponses: false,
    hasModelPrices: false,
    streamUsageOnRequest: true,
  },
} as const satisfies ServiceDescriptor;
`;

/** The three files CONTRIBUTING's recipe touches in src/, and nothing else. */
const GATEWAY_EDITS: Record<string, (text: string) => string> = {
  'src/shared/serviceIds.ts': withId('gateway', 'team/default'),
  'src/core/services/gatewayDescriptor.ts': () => GATEWAY_DESCRIPTOR,
  'src/core/services/descriptors.ts': (text) =>
    text
      .replace(
        /(\nimport type \{ ServiceCapabilities)/,
        "\nimport { gatewayDescriptor } from './gatewayDescriptor.ts';$1",
      )
      .replace(/(const DESCRIPTORS = \{\n(?:.*\n)*?)(\} satisfies)/, '$1  gateway: gatewayDescriptor,\n$2'),
};

function run(dir: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [join(dir, 'src/cli/main.ts'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

describe('the add-a-service recipe', () => {
  it(
    'a new service id is flagged only where its rows go: its default model and the descriptors',
    async () => {
      const flagged = await filesFlaggedAfter('src/shared/serviceIds.ts', (text) =>
        withId('scratch', '')(text).replace(/\n {2}scratch: '',\n/, '\n'),
      );
      expect(flagged).toEqual(['src/core/services/descriptors.ts', 'src/shared/serviceIds.ts']);
    },
    COMPILE_MS,
  );

  it(
    'a hosted OpenAI-compatible service is three files in src/, and it answers, checks keys and shows in the help',
    async () => {
      const edited = Object.keys(GATEWAY_EDITS);
      expect(edited).toHaveLength(3);
      // CONTRIBUTING walks through these very files, and every other file it names there exists.
      const recipe = CONTRIBUTING.slice(CONTRIBUTING.indexOf('### Add a service'), CONTRIBUTING.indexOf('### Add an'));
      for (const file of edited) expect(recipe).toContain(file);
      const named = [...recipe.matchAll(/`((?:src|test)\/[\w./]+\.ts)`/g)].map((m) => m[1]!);
      expect(named.filter((file) => !file.includes('gateway') && !existsSync(join(ROOT, file)))).toEqual([]);
      await withScratchSrc(GATEWAY_EDITS, async (dir, flagged) => {
        expect(flagged).toEqual([]);
        const help = await run(dir, ['ask', '--help'], {});
        expect(help.stdout).toContain(`--service ${[...SERVICE_IDS, 'gateway'].join('|')}`);
        expect(help.stdout).toContain("gateway: the company's OpenAI-compatible gateway");
        expect(help.stdout).toMatch(/KEYWARD_GATEWAY_API_KEY\s+\(gateway\)/);
        const status = await run(dir, ['status', '--help'], {});
        expect(status.stdout).toContain('gateway: whether the gateway answers and lists models');
        // A key is required: none set, nothing is sent.
        const base = ['ask', '--service', 'gateway', '--base-url', bed.emulator.compatibleBaseUrls.keyed];
        const keyless = await run(dir, [...base, '--model', 'm', 'hello'], {});
        expect(keyless.code).toBe(2);
        expect(keyless.stderr).toContain('KEYWARD_GATEWAY_API_KEY');
        const key = bed.emulator.compatible.key;
        bed.emulator.compatible.seen.length = 0;
        const answered = await run(dir, [...base, '--model', 'llama3.2:3b', '--json', 'hello'], {
          KEYWARD_GATEWAY_API_KEY: key,
        });
        expect(answered.stderr).toBe('');
        expect(JSON.parse(answered.stdout)).toMatchObject({
          ok: true,
          service: 'gateway',
          text: answerText('hello', { tokens: 12 }),
        });
        expect(bed.emulator.compatible.seen[0]!.authorization).toBe(`Bearer ${key}`);
      });
    },
    COMPILE_MS,
  );

  it('no code outside the service modules switches on a service id', () => {
    // `case 'router':` or `service === 'direct'`: a branch that a new service would silently fall through. (A key
    // shape or an error dialect may share a service's name; comparing those is not asking which service it is.)
    const ids = SERVICE_IDS.join('|');
    const branch = new RegExp(`case '(${ids})':|\\b(service|id)\\s*[!=]==\\s*'(${ids})'`);
    const offending = sources(SRC)
      .map((path) => relative(ROOT, path))
      .filter((path) => !path.startsWith('src/core/services/'))
      .filter((path) =>
        readFileSync(join(ROOT, path), 'utf8')
          .split('\n')
          .some((line) => branch.test(line)),
      );
    expect(offending).toEqual([]);
  });
});
