// What every command gets and what it returns, apart from the dispatcher (run.ts), which
// loads the commands: a command importing its own dispatcher made an import circle.

/**
 * Exit codes: 0 success, 1 a service error or findings, 2 a usage error, 3 no usable answer (declined or filtered),
 * 4 a key in the prompt (`ask`: nothing was sent), 130 interrupted.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, declined: 3, keyInPrompt: 4, interrupted: 130 } as const;

/** Where a command writes: only whole texts, so a stream or a plain descriptor (fdOutput.ts) will do. */
export interface TextOut {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: TextOut;
  stderr: TextOut;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}
