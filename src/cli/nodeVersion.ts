/** The oldest Node major Keyward supports; undici and the toolchain need 22. */
export const MIN_NODE_MAJOR = 22;

/** A plain sentence for a too-old Node, or undefined when this one will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)/.exec(version)?.[1]);
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return undefined;
  return `keyward needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version}. Install a current Node.js (https://nodejs.org) and run keyward again.`;
}
