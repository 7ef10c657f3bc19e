// action.yml, the composite GitHub Action: its scan step (packages/cli/action-scan.sh) run as
// the runner runs it, writing a schema-valid SARIF report and the step outputs; the report
// goes to github/codeql-action/upload-sarif; no input is spliced into a script.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, makeRepo, tempDir } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';
import { sarifValidator } from './sarifSchema.ts';

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
const action = parse(readFileSync('action.yml', 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const validate = sarifValidator();

/** The scan step as the runner runs it: bash, the step's env with the inputs filled in, GITHUB_* set. */
function runScanStep(workspace: string, inputs: Record<string, string> = {}, path = hookPath(keywardBinDir())) {
  const step = action.runs.steps.find((s) => s.id === 'scan')!;
  const value = (expression: string) =>
    expression.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, name: string) => {
      return inputs[name] ?? action.inputs[name]?.default ?? '';
    });
  const env: NodeJS.ProcessEnv = { PATH: path, HOME: tempDir(), RUNNER_TEMP: tempDir('keyward-runner-temp-') };
  for (const [name, expression] of Object.entries(step.env ?? {})) env[name] = value(expression);
  const output = join(tempDir(), 'github_output');
  writeFileSync(output, '');
  const run = spawnSync('bash', ['-c', step.run!], {
    cwd: workspace,
    env: { ...env, GITHUB_ACTION_PATH: resolve('.'), GITHUB_OUTPUT: output, GITHUB_WORKSPACE: workspace },
    encoding: 'utf8',
  });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  ) as Record<string, string>;
  return { run, outputs };
}

describe('action.yml', () => {
  it('is a composite action: scan, upload the SARIF to code scanning, then fail on findings', () => {
    expect(action.runs.using).toBe('composite');
    const [scan, upload, fail] = action.runs.steps;
    expect(scan).toMatchObject({
      id: 'scan',
      shell: 'bash',
      run: 'bash "$GITHUB_ACTION_PATH/packages/cli/action-scan.sh"',
    });
    expect(upload!.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
    expect(upload!.with).toMatchObject({ sarif_file: '${{ steps.scan.outputs.sarif-file }}' });
    expect(fail!.if).toMatch(/inputs\.fail-on-findings == 'true'/);
    // An input (a path, a version) reaches a script only through the environment.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    expect(Object.keys(action.outputs).sort()).toEqual([
      'exit-code',
      'findings',
      'sarif-file',
      'suppressed',
      'unchanged',
    ]);
  });

  it('the scan step writes a schema-valid SARIF report and says what it found', () => {
    const repo = makeRepo();
    repo.write('leak.js', `const k = "${routerKey()}";\n`);
    repo.write('clean.js', 'const k = process.env.KEY;\n');
    repo.git('add', '.');
    const { run, outputs } = runScanStep(repo.dir);
    expect(run.status).toBe(0);
    expect(outputs).toEqual({
      findings: '1',
      suppressed: '0',
      unchanged: '0',
      'exit-code': '1',
      'sarif-file': 'keyward.sarif',
    });
    expect(run.stderr).toMatch(
      /::error file=leak\.js,line=1,col=12,title=Keyward::Exposed routing service key sk-or-v1-…/,
    );
    const log = JSON.parse(readFileSync(join(repo.dir, 'keyward.sarif'), 'utf8')) as unknown;
    expect(validate(log)).toBe(true);
  });

  it('a clean checkout: no findings, exit code 0; a path input with shell syntax is only a path', () => {
    const repo = makeRepo();
    repo.write('src/clean.js', 'const k = process.env.KEY;\n');
    repo.git('add', '.');
    const { run, outputs } = runScanStep(repo.dir, { path: 'src', 'sarif-file': 'out.sarif' });
    expect(run.status).toBe(0);
    expect(outputs).toEqual({
      findings: '0',
      suppressed: '0',
      unchanged: '0',
      'exit-code': '0',
      'sarif-file': 'out.sarif',
    });
    expect(validate(JSON.parse(readFileSync(join(repo.dir, 'out.sarif'), 'utf8')))).toBe(true);

    const hostile = runScanStep(repo.dir, { path: '$(touch pwned) ;touch pwned2' });
    expect(hostile.run.status).toBe(2);
    expect(hostile.run.stderr).toMatch(/no such file or folder: .*\$\(touch/);
    expect(hostile.outputs).toEqual({ 'exit-code': '2' });
    expect(spawnSync('ls', [repo.dir], { encoding: 'utf8' }).stdout).not.toMatch(/pwned/);
  });

  it('with a committed .keyward-baseline.json and a .keywardignore only a new key fails: the rest are notices', () => {
    const repo = makeRepo();
    const old = routerKey();
    repo.write('old.js', `const k = "${old}";\n`);
    repo.write('fixtures/fake.js', `const k = "${routerKey()}";\n`);
    repo.write('.keywardignore', 'fixtures/  # generated test keys, never live\n');
    repo.git('add', '.');
    const write = spawnSync(
      process.execPath,
      [resolve('dist/cli.js'), 'scan', '--write-baseline', '.keyward-baseline.json'],
      {
        cwd: repo.dir,
        encoding: 'utf8',
      },
    );
    expect(write.status).toBe(0);
    repo.git('add', '.');
    const clean = runScanStep(repo.dir);
    expect(clean.outputs).toEqual({
      findings: '0',
      suppressed: '1',
      unchanged: '1',
      'exit-code': '0',
      'sarif-file': 'keyward.sarif',
    });
    expect(clean.run.stderr).toMatch(
      /::notice file=old\.js,line=1,col=12,title=Keyward::.*\[unchanged since the baseline\]/,
    );
    expect(clean.run.stderr).toMatch(
      /::notice file=fixtures\/fake\.js,.*\[suppressed: generated test keys, never live\]/,
    );
    expect(clean.run.stderr).not.toMatch(/::error/);
    repo.write('new.js', `const k = "${old}";\n`);
    repo.git('add', 'new.js');
    const leak = runScanStep(repo.dir);
    expect(leak.outputs).toMatchObject({ findings: '1', suppressed: '1', unchanged: '1', 'exit-code': '1' });
    expect(leak.run.stderr).toMatch(/::error file=new\.js,line=1,col=12,title=Keyward::/);
    expect(validate(JSON.parse(readFileSync(join(repo.dir, 'keyward.sarif'), 'utf8')))).toBe(true);
    // The baseline input names another file; one that is not there stops the scan (exit 2), never "all new".
    const missing = runScanStep(repo.dir, { baseline: 'nowhere.json' });
    expect(missing.outputs['exit-code']).toBe('2');
  });

  // actions/checkout fetches one commit by default (fetch-depth: 1); a history scan of that is cut short.
  it('history: true deepens a shallow checkout, then reports history and files in one SARIF run', () => {
    const source = makeRepo();
    const key = routerKey();
    source.write('old.env', `KEY=${key}\n`);
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'old');
    source.git('rm', '-q', 'old.env');
    source.write('clean.js', 'const k = process.env.KEY;\n');
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'clean');
    const workspace = tempDir('keyward-ws-');
    makeRepo(tempDir(), false).git('clone', '-q', '--depth=1', `file://${source.dir}`, workspace);
    const shallow = () =>
      spawnSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: workspace, encoding: 'utf8' }).stdout.trim();
    expect(shallow()).toBe('true');

    const files = runScanStep(workspace);
    expect(files.outputs).toMatchObject({ findings: '0', 'exit-code': '0' });
    expect(shallow()).toBe('true');

    const { run, outputs } = runScanStep(workspace, { history: 'true' });
    expect(run.status).toBe(0);
    expect(shallow()).toBe('false');
    expect(outputs).toMatchObject({ findings: '1', 'exit-code': '1', 'sarif-file': 'keyward.sarif' });
    const log = JSON.parse(readFileSync(join(workspace, 'keyward.sarif'), 'utf8')) as any;
    expect(validate(log)).toBe(true);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].results.map((r: any) => r.locations[0].physicalLocation.artifactLocation.uri)).toEqual([
      'old.env',
    ]);
    expect(readFileSync(join(workspace, 'keyward.sarif'), 'utf8')).not.toContain(key);
  });

  it('history: true on a checkout that cannot be deepened says history is cut short and exits 2', () => {
    const source = makeRepo();
    source.write('a.txt', 'a\n');
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'a');
    source.write('b.txt', 'b\n');
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'b');
    const workspace = tempDir('keyward-ws-');
    makeRepo(tempDir(), false).git('clone', '-q', '--depth=1', `file://${source.dir}`, workspace);
    source.remove();
    const { run, outputs } = runScanStep(workspace, { history: 'true' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/::warning title=Keyward::git fetch --unshallow failed/);
    expect(outputs).toMatchObject({ findings: '0', 'exit-code': '2' });
    const log = JSON.parse(readFileSync(join(workspace, 'keyward.sarif'), 'utf8')) as any;
    expect(validate(log)).toBe(true);
    expect(log.runs[0].invocations[0].executionSuccessful).toBe(false);
    expect(log.runs[0].invocations[0].toolExecutionNotifications).toContainEqual(
      expect.objectContaining({ descriptor: { id: 'shallow-history' } }),
    );
  });
});

describe('action.yml: workflow commands carry no command of the repository', () => {
  // GitHub reads any log line starting with "::" as a workflow command, so a file name with a
  // newline and "::warning ..." in it was a command of its own. Values are escaped as GitHub's
  // toolkit does (actions/toolkit packages/core/src/command.ts, escapeData: % CR LF;
  // escapeProperty: also ':' and ','), file names and source-map source names included.
  it('a file name and a source name holding a newline and "::warning" stay inside Keyward\'s ::error line', () => {
    const repo = makeRepo();
    const hostile = 'a\n::warning title=Injected::pwned,x:y%.js';
    repo.write(hostile, `const k = "${routerKey()}";\n`);
    const map = {
      version: 3,
      file: 'main.js',
      sources: ['src/b\r\n::warning file=x.ts::injected.ts'],
      sourcesContent: [`export const k = "${routerKey()}";\n`],
      names: [],
      mappings: '',
    };
    repo.write('main.js.map', JSON.stringify(map));
    repo.git('add', '.');
    const { run, outputs } = runScanStep(repo.dir);
    expect(run.status).toBe(0);
    expect(outputs['findings']).toBe('2');
    // keyward's own output runs between ::stop-commands::TOKEN and ::TOKEN:: (GitHub's documented pause).
    const lines = (run.stdout + '\n' + run.stderr).split(/\r?\n|\r/);
    const token = /^::stop-commands::(keyward-[0-9a-f]{32})$/m.exec(run.stdout)?.[1];
    expect(token).toBeDefined();
    expect(run.stdout).toContain(`\n::${token}::\n`);
    const commands = lines.filter((line) => line.startsWith('::') && !line.includes(token!));
    expect(commands).toHaveLength(2);
    for (const line of commands)
      expect(line).toMatch(/^::error file=[^,:\r\n]+,line=\d+,col=\d+,title=Keyward::Exposed routing service key /);
    expect(commands).toContainEqual(
      expect.stringMatching(/^::error file=a%0A%3A%3Awarning title=Injected%3A%3Apwned%2Cx%3Ay%25\.js,line=1,/),
    );
    expect(commands).toContainEqual(
      expect.stringMatching(/^::error file=main\.js\.map!src\/b%0D%0A%3A%3Awarning file=x\.ts%3A%3Ainjected\.ts,/),
    );
  });

  it('a sarif-file input with a line break is refused before anything is written to the outputs', () => {
    const repo = makeRepo();
    repo.write('clean.js', 'const k = process.env.KEY;\n');
    repo.git('add', '.');
    const { run, outputs } = runScanStep(repo.dir, { 'sarif-file': 'out.sarif\nfindings=0' });
    expect(run.status).toBe(2);
    expect(outputs).toEqual({ 'exit-code': '2' });
  });
});

describe('action.yml: runs the published keyward, never one the checkout supplies', () => {
  // npx keyward@<version> in the checkout runs the checkout's own node_modules/keyward when its version
  // matches (no download, no word), so a pull request could commit a keyward that reports nothing.
  it('installs keyward@<version> in a fresh folder outside the checkout, without scripts, and scans with it', () => {
    const repo = makeRepo();
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    const marker = join(tempDir('keyward-marker-'), 'ran');
    const planted = join(repo.dir, 'node_modules', 'keyward');
    mkdirSync(join(planted, 'bin'), { recursive: true });
    mkdirSync(join(repo.dir, 'node_modules', '.bin'));
    writeFileSync(
      join(planted, 'package.json'),
      JSON.stringify({ name: 'keyward', version, bin: { keyward: 'bin/keyward.js' } }),
    );
    writeFileSync(
      join(planted, 'bin', 'keyward.js'),
      `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nprocess.stdout.write('{}');\n`,
      { mode: 0o755 },
    );
    symlinkSync('../keyward/bin/keyward.js', join(repo.dir, 'node_modules', '.bin', 'keyward'));
    repo.write('package.json', '{ "name": "p", "private": true }\n');
    repo.write('leak.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'leak.js', 'package.json');

    // A stand-in for npm (no network in tests): it records where and how it ran, and "installs"
    // the built CLI where it was asked to.
    const fake = tempDir('keyward-fake-npm-');
    const log = join(fake, 'log');
    writeFileSync(
      join(fake, 'npm'),
      `#!/bin/sh\necho "$PWD|$*" >> ${JSON.stringify(log)}\nmkdir -p node_modules/.bin\nprintf '#!/bin/sh\\nexec %s %s "$@"\\n' ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} > node_modules/.bin/keyward\nchmod +x node_modules/.bin/keyward\n`,
      { mode: 0o755 },
    );
    // PATH holds the checkout's node_modules/.bin (its planted keyward), npx (in /usr/bin) and the fake npm.
    const { run, outputs } = runScanStep(repo.dir, {}, hookPath(fake, join(repo.dir, 'node_modules', '.bin')));
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr).toMatch(/the keyward on PATH .* lies inside the checkout/);
    expect(outputs).toMatchObject({ findings: '1', 'exit-code': '1' });
    const [where, args] = readFileSync(log, 'utf8').trim().split('|') as [string, string];
    expect(where.startsWith(realpathSync(repo.dir))).toBe(false);
    expect(args).toBe(`install --no-save --ignore-scripts --no-audit --no-fund keyward@${version}`);

    // Nor through npx: with no keyward on PATH at all, the old step's npx found the planted package.
    const again = runScanStep(repo.dir, {}, hookPath(fake));
    expect(existsSync(marker)).toBe(false);
    expect(again.outputs).toMatchObject({ findings: '1', 'exit-code': '1' });
  });
});
