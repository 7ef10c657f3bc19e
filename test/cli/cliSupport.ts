// Runs the built `keyward` CLI as a terminal user does, with only the environment given.
import { spawn } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `input`, when given, is piped to standard input as a shell pipe would; `cwd`, where it runs (else here). */
export function cli(args: string[], env: Record<string, string>, input?: string, cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [resolvePath('dist/cli.js'), ...args], {
      ...(cwd ? { cwd } : {}),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
