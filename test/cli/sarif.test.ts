// `keyward scan --format sarif` is valid SARIF 2.1.0, checked against the OASIS schema
// with a JSON Schema validator: findings of both services, a clean run, files not scanned.
import { describe, expect, it } from 'vitest';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { makeRepo, scanCli } from './gitFixtures.ts';
import { sarifValidator } from './sarifSchema.ts';

const validate = sarifValidator();
const expectValid = (text: string) => {
  const log = JSON.parse(text) as unknown;
  const ok = validate(log);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
  return log as { runs: { results: unknown[]; invocations: { toolExecutionNotifications: unknown[] }[] }[] };
};

describe('SARIF against the SARIF 2.1.0 schema', () => {
  it('findings of both services, tracked and staged, are schema-valid', () => {
    const repo = makeRepo();
    repo.write('src/a.ts', `export const r = "${routerKey()}";\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    repo.write('notes.md', `direct: ${directKey('proj')}\n`);
    repo.git('add', 'notes.md');
    const run = scanCli(repo.dir, ['--format', 'sarif']);
    expect(run.status).toBe(1);
    const log = expectValid(run.stdout);
    expect(log.runs[0]!.results).toHaveLength(2);
    const staged = scanCli(repo.dir, ['--staged', '--format', 'sarif']);
    expect(expectValid(staged.stdout).runs[0]!.results).toHaveLength(1);
  });

  it('a clean run and a run with files not scanned are schema-valid', () => {
    const repo = makeRepo();
    repo.write('clean.txt', 'nothing\n');
    repo.write('big.txt', 'x'.repeat(4096));
    const clean = scanCli(repo.dir, ['--format', 'sarif', 'clean.txt']);
    expect(clean.status).toBe(0);
    expect(expectValid(clean.stdout).runs[0]!.results).toEqual([]);
    const capped = scanCli(repo.dir, ['--format', 'sarif', '--max-size', '1024']);
    const log = expectValid(capped.stdout);
    expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications.length).toBeGreaterThan(0);
  });

  it('medium-confidence findings past the per-file cap are counted in SARIF (schema-valid), JSON and text', () => {
    const repo = makeRepo();
    // Legacy-shaped keys one character short: only the loose tier matches them, and past 20 they are counted.
    const lines = Array.from({ length: 30 }, (_, i) => `K${i}="${directKey('legacy').slice(0, -1)}"`);
    repo.write('flood.env', lines.join('\n') + '\n');
    const run = scanCli(repo.dir, ['--format', 'sarif', '--no-git']);
    const log = expectValid(run.stdout) as unknown as {
      runs: {
        results: unknown[];
        properties?: { omitted: number };
        invocations: { toolExecutionNotifications: { level: string; descriptor: { id: string } }[] }[];
      }[];
    };
    expect(log.runs[0]!.results).toHaveLength(20);
    expect(log.runs[0]!.properties?.omitted).toBe(10);
    const notes = log.runs[0]!.invocations[0]!.toolExecutionNotifications.filter((n) => n.descriptor.id === 'omitted');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.level).toBe('warning');
    // The same count in JSON (the "omitted" field) and in text, one entry for the file.
    const report = JSON.parse(scanCli(repo.dir, ['--format', 'json', '--no-git']).stdout) as {
      findings: unknown[];
      omitted?: { path: string; count: number; confidence: string; message: string }[];
    };
    expect(report.findings).toHaveLength(20);
    expect(report.omitted).toEqual([
      { path: 'flood.env', count: 10, confidence: 'medium', message: expect.stringMatching(/^10 more probable keys/) },
    ]);
    expect(scanCli(repo.dir, ['--no-git']).stdout).toMatch(/^flood\.env: 10 more probable keys \(medium confidence\)/m);
    const few = makeRepo();
    few.write('one.env', `K="${directKey('legacy').slice(0, -1)}"\n`);
    expect(JSON.parse(scanCli(few.dir, ['--format', 'json', '--no-git']).stdout)).not.toHaveProperty('omitted');
  });

  it('the validator is not a rubber stamp', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });
});
