// What the Marketplace and Open VSX take from package.json, checked before a store refuses it: vsce checks
// little of this itself (it packages an SVG-free README and a missing icon without a word), and ovsx only
// says so at publish time, over the network.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;

/** The fixed category list of the extension manifest reference (code.visualstudio.com/api/references/extension-manifest). */
const CATEGORIES = new Set([
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
]);

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * What is wrong with each image of a README for the stores: vsce refuses an SVG (but a trusted badge's) and
 * an http image, and rewrites a relative one against the repository (microsoft/vscode-vsce src/package.ts,
 * `MarkdownProcessor`). Relative images must be PNGs in media/readme/, which .vscodeignore keeps out of the VSIX.
 */
export function readmeImageProblems(markdown: string, exists: (path: string) => boolean): string[] {
  const sources = [
    ...[...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]!),
    ...[...markdown.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]!),
  ];
  return sources.flatMap((src) => {
    if (/^[a-z]+:/i.test(src))
      return /^https:/i.test(src) && !/\.svg(\?|#|$)/i.test(src) ? [] : [`${src}: https and not SVG`];
    if (!/^(\.\/)?media\/readme\/[\w.-]+\.png$/.test(src)) return [`${src}: a PNG in media/readme/`];
    return exists(src) ? [] : [`${src}: missing`];
  });
}

describe('the manifest a store takes', () => {
  it("README's images are what vsce and the stores take", () => {
    expect(readmeImageProblems(readFileSync('README.md', 'utf8'), existsSync)).toEqual([]);
    // The check itself, on images it must refuse.
    const sample =
      '![a](media/chat.svg) ![b](media/readme/missing.png) <img src="http://x.test/a.png"> ![c](https://x.test/b.png)';
    expect(readmeImageProblems(sample, () => false)).toEqual([
      'media/chat.svg: a PNG in media/readme/',
      'media/readme/missing.png: missing',
      'http://x.test/a.png: https and not SVG',
    ]);
  });

  // The floor is what scripts/enginesFloor.ts finds; compiling against that release's typings makes
  // the compiler refuse an API newer than the floor (vsce only refuses typings newer than engines).
  it('compiles against the typings of the oldest VS Code it claims to run on', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const typings = lock.packages['node_modules/@types/vscode']!.version;
    expect((manifest.engines as { vscode: string }).vscode).toBe(`^${typings}`);
    expect((manifest.devDependencies as Record<string, string>)['@types/vscode']).toBe(typings);
  });

  it('names a square PNG icon of at least 128 px that ships', () => {
    const icon = manifest.icon;
    expect(typeof icon).toBe('string');
    const size = pngSize(readFileSync(icon as string));
    expect(size).not.toBeNull();
    expect(size!.width).toBe(size!.height);
    expect(size!.width).toBeGreaterThanOrEqual(128);
    // Small enough for the VSIX budget (bench/bundle.ts).
    expect(readFileSync(icon as string).length).toBeLessThan(8 * 1024);
  });

  it('sits in AI and Chat, with categories only from the fixed list', () => {
    const categories = manifest.categories as string[];
    expect(categories).toEqual(expect.arrayContaining(['AI', 'Chat']));
    expect(categories.filter((c) => !CATEGORIES.has(c))).toEqual([]);
  });

  // Open VSX's CLI refuses a package without a publisher, a name or a licence (eclipse/openvsx
  // cli/src/check-license.ts); proposed API only runs where a product enables it, never from a store.
  it('has what Open VSX asks for: publisher, licence file, repository, no proposed API', () => {
    expect(manifest.publisher).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(manifest.license).toBe('MIT');
    expect(existsSync('LICENSE')).toBe(true);
    expect((manifest.repository as { url: string }).url).toMatch(/^https:\/\/github\.com\//);
    expect(manifest).not.toHaveProperty('enabledApiProposals');
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
