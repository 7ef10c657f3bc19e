// action.yml, the composite GitHub Action: its scan step (packages/cli/action-scan.sh) run as
// the runner runs it, writing a schema-valid SARIF report and the step outputs; the report
// goes to github/codeql-action/upload-sarif; no input is spliced into a script.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routerKey } from '../emulator/keyFactory.ts';
import { makeRepo, tempDir } from './gitFixtures.ts';
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
function runScanStep(workspace: string, inputs: Record<string, string> = {}) {
  const step = action.runs.steps.find((s) => s.id === 'scan')!;
  const value = (expression: string) =>
    expression.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_m, name: string) => {
      return inputs[name] ?? action.inputs[name]?.default ?? '';
    });
  const env: NodeJS.ProcessEnv = { PATH: hookPath(keywardBinDir()), HOME: tempDir() };
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
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'findings', 'sarif-file']);
  });

  it('the scan step writes a schema-valid SARIF report and says what it found', () => {
    const repo = makeRepo();
    repo.write('leak.js', `const k = "${routerKey()}";\n`);
    repo.write('clean.js', 'const k = process.env.KEY;\n');
    repo.git('add', '.');
    const { run, outputs } = runScanStep(repo.dir);
    expect(run.status).toBe(0);
    expect(outputs).toEqual({ findings: '1', 'exit-code': '1', 'sarif-file': 'keyward.sarif' });
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
    expect(outputs).toEqual({ findings: '0', 'exit-code': '0', 'sarif-file': 'out.sarif' });
    expect(validate(JSON.parse(readFileSync(join(repo.dir, 'out.sarif'), 'utf8')))).toBe(true);

    const hostile = runScanStep(repo.dir, { path: '$(touch pwned) ;touch pwned2' });
    expect(hostile.run.status).toBe(2);
    expect(hostile.run.stderr).toMatch(/no such file or folder: .*\$\(touch/);
    expect(hostile.outputs).toEqual({ 'exit-code': '2' });
    expect(spawnSync('ls', [repo.dir], { encoding: 'utf8' }).stdout).not.toMatch(/pwned/);
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
    expect(outputs).toEqual({ findings: '1', 'exit-code': '1', 'sarif-file': 'keyward.sarif' });
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
