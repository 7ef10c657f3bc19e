/**
 * The oldest Node major `keyward scan` and `install-hook` run on. 20, not newer:
 * the pre-commit framework may run a hook on the system's Node (Debian's is 20)
 * whatever PATH says, and a key check should not fail for that.
 */
export const MIN_NODE_MAJOR = 20;

/** `ask` and `status` talk HTTP through undici, which needs Node 22. */
export const NETWORK_NODE_MAJOR = 22;

const NETWORK_COMMANDS = new Set(['ask', 'status']);

/** The Node major a command needs. */
export function nodeMajorFor(command: string | undefined): number {
  return command !== undefined && NETWORK_COMMANDS.has(command) ? NETWORK_NODE_MAJOR : MIN_NODE_MAJOR;
}

/** A plain sentence for a too-old Node, or undefined when this one will do for `command`. */
export function nodeVersionProblem(version: string, command?: string): string | undefined {
  const need = nodeMajorFor(command);
  const major = Number(/^v?(\d+)/.exec(version)?.[1]);
  if (Number.isFinite(major) && major >= need) return undefined;
  const what = need === MIN_NODE_MAJOR ? 'keyward' : `keyward ${command}`;
  const still =
    need > MIN_NODE_MAJOR && major >= MIN_NODE_MAJOR
      ? ` (keyward scan and install-hook run on Node.js ${MIN_NODE_MAJOR}.)`
      : '';
  return `${what} needs Node.js ${need} or newer; this is Node.js ${version}. Install a current Node.js (https://nodejs.org) and run keyward again.${still}`;
}
