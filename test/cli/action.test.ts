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
});
