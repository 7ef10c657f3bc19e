// The extension bundle keeps the archive unpackers (tar-stream, the zip reader, zlib) out, in dist/archive.js,
// loaded on the first archive a workspace scan meets, as undici is loaded on the first request: an
// activation does not parse them and dist/extension.js keeps near its size budget (bench/bundle.ts).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeVscode, fakeExtensionContext } from './fakeVscode.ts';
import { loadExtensionBundle } from './loadBundle.ts';
import { DIRECT_INFIX } from '../../src/shared/keyShapes.ts';
import { PRECHECK_WASM_BASE64 } from '../../src/core/scan/precheckWasm.ts';

const require = createRequire(import.meta.url);

describe('the archive unpackers, on demand', () => {
  it('are not in dist/extension.js and not loaded by activation', () => {
    // tar-stream's own error text: present wherever tar-stream is bundled.
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain('Invalid tar header');
    const archive = resolve('dist/archive.js');
    delete require.cache[archive];
    const { api } = createFakeVscode();
    const context = fakeExtensionContext();
    loadExtensionBundle(api).activate(context);
    expect(Object.keys(require.cache)).not.toContain(archive);
    context.dispose();
  });

  it('dist/archive.js holds them, for the archive walker to load', () => {
    // The walker is itself on demand (dist/archiveScan.js): the workspace scan (in dist/commands.js) loads it, and it
    // the unpackers.
    expect(readFileSync('dist/commands.js', 'utf8')).toMatch(/import\(["']\.\/archiveScan\.js["']\)/);
    expect(readFileSync('dist/archiveScan.js', 'utf8')).toMatch(/(?:import|require)\(["']\.\/archive\.js["']\)/);
    const codecs = require(resolve('dist/archive.js')) as Record<string, unknown>;
    expect(Object.keys(codecs).sort()).toEqual([
      'extract',
      'gunzipSync',
      'unpackEntry',
      'zipEntryList',
      'zstdDecompressSync',
    ]);
  });
});

// The git history scan and the pre-commit hook installer run only on their commands, the wire clients on the first
// request: each is a file of its own
// (esbuild.js, ON_DEMAND), imported on the command's first run, never parsed by an activation. What they share
// with the extension (the scanner, git helpers, the redactor) they take from the loaded dist/extension.js, so
// there is one instance of each module, not a copy.
describe('the history scan, the hook installer and the other commands, on demand', () => {
  const onDemand = {
    history: 'dist/history.js',
    commands: 'dist/commands.js',
    chatSession: 'dist/chatSession.js',
    wireClients: 'dist/wireClients.js',
    lmRequests: 'dist/lmRequests.js',
    archiveScan: 'dist/archiveScan.js',
    streamScan: 'dist/streamScan.js',
    sourceMap: 'dist/sourceMap.js',
    teamRules: 'dist/teamRules.js',
    // The probes and the test API, loaded by activate() in Test mode only.
    testMode: 'dist/testMode.js',
    // The hover's text over a flagged key, on the first hover over one.
    keyHover: 'dist/keyHover.js',
    // The scanner thread's driver, with the first large document.
    scanThread: 'dist/scanThread.js',
    // Git asked about every open document at once, the first time git's view changes with several open.
    gitPrefetch: 'dist/gitPrefetch.js',
    // What two parts share and the extension bundle does not hold (esbuild.js): each of them loads it.
    common: 'dist/common.js',
  };

  it('are not in dist/extension.js and not loaded by activation', () => {
    const bundle = readFileSync('dist/extension.js', 'utf8');
    // Each one's own text: present wherever the module is bundled.
    expect(bundle).not.toContain('# installed by keyward install-hook');
    expect(bundle).not.toContain('--no-renames');
    // The workspace scan's and the usage tier picker's.
    expect(bundle).not.toContain('Keyward: scanning the workspace');
    // The chat panel's Content Security Policy, which the chat session's webview connection writes.
    expect(bundle).not.toContain('default-src');
    // The wire clients' streaming: the Responses API's text events and chat completions' usage option.
    expect(bundle).not.toContain('response.output_text.delta');
    expect(bundle).not.toContain('stream_options');
    // The language model provider's secret guard, which runs on a request.
    expect(bundle).not.toContain('the stored keys could not be read to check the messages');
    // The quick fixes a finding offers, loaded when the cursor first rests on one (keyFixActions.ts).
    expect(bundle).not.toContain('from the environment and move the key to .env');
    // The hover's text over a flagged key, loaded on the first hover over one (keyHover.ts).
    expect(bundle).not.toContain('Inside this file');
    // The liveness check's action, loaded with the quick fixes when the cursor first rests on a finding.
    expect(bundle).not.toMatch(/\(\s*["']Check whether this key is live["']\s*\)/);
    const paths = Object.values(onDemand).map((file) => resolve(file));
    for (const path of paths) delete require.cache[path];
    const { api } = createFakeVscode();
    const context = fakeExtensionContext();
    loadExtensionBundle(api).activate(context);
    for (const path of paths) expect(Object.keys(require.cache)).not.toContain(path);
    context.dispose();
  });

  it('the test API and its probes load in Test mode only, from dist/testMode.js', async () => {
    const testMode = resolve(onDemand.testMode);
    delete require.cache[testMode];
    const { api } = createFakeVscode();
    const context = fakeExtensionContext('0.0.0', 3);
    const exports = loadExtensionBundle(api, undefined, { onDemand: true }).activate(context) as unknown as Promise<
      Record<string, unknown>
    >;
    expect(exports).toBeInstanceOf(Promise);
    const testApi = await exports;
    expect(Object.keys(require.cache)).toContain(testMode);
    expect(typeof testApi.ask).toBe('function');
    expect(testApi.panelProbe).toBeDefined();
    expect(testApi.dialogs).toBeDefined();
    // The test API's own member: present wherever testApi.ts is bundled.
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain('chatTitles');
    context.dispose();
  });

  it('are files of their own, which the bundle imports by name', () => {
    const bundle = readFileSync('dist/extension.js', 'utf8');
    expect(bundle).toMatch(/import\(["']\.\/commands\.js["']\)/);
    expect(bundle).toMatch(/import\(["']\.\/chatSession\.js["']\)/);
    expect(bundle).toMatch(/import\(["']\.\/wireClients\.js["']\)/);
    expect(bundle).toMatch(/import\(["']\.\/lmRequests\.js["']\)/);
    // The history scan's command is in commands.js, which loads history.js in turn (not a copy of it).
    const commands = readFileSync(onDemand.commands, 'utf8');
    expect(commands).toMatch(/import\(["']\.\/history\.js["']\)/);
    expect(commands).not.toContain('--no-renames');
    // The hook installer is held by commands.js, the one part that loads it: a file of its own (6.5 KB) cost a
    // second read and compile on Install Pre-commit Hook's first run and saved commands.js nothing measurable.
    expect(commands).toContain('# installed by keyward install-hook');
    expect(commands).toContain('from the environment and move the key to .env');
    expect(commands).not.toMatch(/preCommitHook\.js/);
    // A part that needs another part's code requires that part's file, which holds it once.
    expect(readFileSync(onDemand.history, 'utf8')).toMatch(/require\(["']\.\/streamScan\.js["']\)/);
  });

  it('take the modules they share from the loaded extension bundle or common.js, and load no second copy of either', () => {
    const { api } = createFakeVscode();
    const context = fakeExtensionContext();
    const extension = loadExtensionBundle(api);
    extension.activate(context);
    const shared = (extension as unknown as { keywardShared: Record<string, unknown> }).keywardShared;
    expect(Object.keys(shared)).toEqual(expect.arrayContaining(['src/core/scan/scanner.ts', 'src/core/redact.ts']));
    const loaded = require.cache[resolve('dist/extension.js')];
    for (const path of Object.values(onDemand)) delete require.cache[resolve(path)];
    // common.js holds modules that use vscode (the error kinds' words): loaded the way the bundle is.
    const common = (loadExtensionBundle(api, onDemand.common) as unknown as { keywardCommon: Record<string, unknown> })
      .keywardCommon;
    const history = require(resolve(onDemand.history)) as Record<string, unknown>;
    // This part uses vscode itself: loaded the way the bundle is, with `require('vscode')` answered by the fake.
    const commands = loadExtensionBundle(api, onDemand.commands) as unknown as Record<string, unknown>;
    expect(typeof history.scanHistory).toBe('function');
    expect(typeof history.countCommits).toBe('function');
    for (const name of [
      'installHookCommand',
      'scanWorkspace',
      'scanHistory',
      'showStatusActions',
      'pickUsageTier',
      'editModelSettings',
      'RouterSignIn',
    ])
      expect(typeof commands[name]).toBe('function');
    const chat = loadExtensionBundle(api, onDemand.chatSession) as unknown as Record<string, unknown>;
    expect(typeof chat.ChatSession).toBe('function');
    const clients = require(resolve(onDemand.wireClients)) as Record<string, unknown>;
    // The routing service's sign-in code exchange travels with the clients: it needs the same transport.
    expect(Object.keys(clients).sort()).toEqual(['ChatCompletionsClient', 'ResponsesClient', 'exchangeCode']);
    const maps = require(resolve(onDemand.sourceMap)) as Record<string, unknown>;
    expect(typeof maps.scanShippedText).toBe('function');
    const walker = require(resolve(onDemand.archiveScan)) as Record<string, unknown>;
    expect(typeof walker.scanArchive).toBe('function');
    const lm = loadExtensionBundle(api, onDemand.lmRequests) as unknown as Record<string, unknown>;
    expect(Object.keys(lm).sort()).toEqual([
      'LanguageModelAccess',
      'ListRetry',
      'countTokens',
      'modelInformation',
      'respond',
    ]);
    // The same module object: the parts required the bundle already loaded, not a fresh one.
    expect(require.cache[resolve('dist/extension.js')]).toBe(loaded);
    // What the chat session and the commands both write with (the safe write, a conversation's markdown) is in
    // common.js, which they share, not in the bundle that activation parses.
    for (const path of ['src/core/safeWrite.ts', 'src/core/chat/conversation.ts']) {
      expect(shared[path]).toBeUndefined();
      expect(common[path]).toBeDefined();
    }
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain('keywardCommon');
    // The editor scans text: the byte pre-check (its WebAssembly) and the archive formats are the file scans' alone.
    for (const path of ['src/core/scan/literalPrecheck.ts', 'src/core/scan/precheck.ts', 'src/core/scan/formats.ts']) {
      expect(shared[path]).toBeUndefined();
      expect(common[path]).toBeDefined();
    }
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain(PRECHECK_WASM_BASE64.slice(0, 64));
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain('Unix compress (.Z)');
    // The scanner's code is in the extension bundle only.
    expect(readFileSync(onDemand.history, 'utf8')).not.toContain(DIRECT_INFIX);
    // The bundle exports only what the parts take from a module: of the ignore file's reader, which the bundle holds
    // whole for the diagnostics, the parts take one function; the rest is not exported for them.
    expect(Object.keys(shared['src/core/scan/ignoreFile.ts'] as object).sort()).toEqual(['problemText']);
    // The report's formatting and skip reasons are the workspace scan's alone: in dist/commands.js, not the bundle.
    expect(shared['src/core/scan/report.ts']).toBeUndefined();
    context.dispose();
  });
});

// The chat's stylesheet ships built (minified in production, like the webview's script): the webview links
// dist/panel.css, and the VSIX carries that file rather than its source in media/.
describe("the chat's stylesheet", () => {
  it('is built into dist/panel.css from media/panel.css, which the chat links and the VSIX ships', () => {
    const built = readFileSync('dist/panel.css', 'utf8');
    expect(built).toContain('--vscode-editor-background');
    expect(readFileSync('src/host/chat/webviewConnection.ts', 'utf8')).toContain("'dist', 'panel.css'");
    const ignore = readFileSync('.vscodeignore', 'utf8');
    expect(ignore).toMatch(/^!dist\/panel\.css$/m);
    expect(ignore).not.toMatch(/^!media\/\*\.\{?[\w,]*css/m);
  });
});
