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

  // The Open VSX server's own checks on upload (eclipse/openvsx server/src/main/java/org/eclipse/openvsx/
  // ExtensionValidator.java: validateExtensionName, validateMetadata). ovsx runs them only over the network.
  it("passes the Open VSX server's metadata checks", () => {
    // The store shows the English strings of package.nls.json where the manifest names a %key%.
    const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
    const localized = JSON.parse(
      JSON.stringify(manifest).replace(/"%([\w.-]+)%"/g, (whole, key: string) =>
        key in nls ? JSON.stringify(nls[key]) : whole,
      ),
    ) as Record<string, unknown>;
    expect(localized.description).not.toMatch(/^%/);
    expect(openVsxProblems(localized)).toEqual([]);
    // The check itself, on a manifest the server refuses.
    const refused = {
      name: 'key ward',
      version: 'latest',
      displayName: 'Key\u0000ward',
      description: 'x'.repeat(2049),
      categories: ['AI'],
      keywords: ['a\u2028b'],
      homepage: 'not a url',
      markdown: 'gfm',
      qna: 'nowhere',
      galleryBanner: { color: '#'.repeat(17), theme: 'blue' },
    };
    expect(openVsxProblems(refused)).toEqual([
      'name: Invalid extension name: key ward',
      "version: The version string 'latest' is reserved.",
      'displayName: invalid character at 3',
      'description: longer than 2048',
      'keywords: invalid character at 1',
      'homepage: not a URL',
      'markdown: not one of github, standard',
      'galleryBanner.color: longer than 16',
      'galleryBanner.theme: not one of dark, light',
      'qna: not one of marketplace, false or a URL',
    ]);
  });
});

/** The Open VSX server's upload checks, rule for rule (see the test above for the source). */
export function openVsxProblems(m: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const name = text(m.name) ?? '';
  if (!/^[\w\-+$~]+$/.test(name) || name.length > 255) problems.push(`name: Invalid extension name: ${name}`);
  const version = text(m.version) ?? '';
  if (['latest', 'pre-release', 'reviews'].includes(version))
    problems.push(`version: The version string '${version}' is reserved.`);
  else if (!/^[\p{L}\p{N}$+\-,.:;_]+$/u.test(version)) problems.push(`version: invalid characters in ${version}`);
  // Java's CONTROL, FORMAT, UNASSIGNED, PRIVATE_USE, LINE_SEPARATOR and PARAGRAPH_SEPARATOR types.
  const invalid = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
  const field = (label: string, value: unknown, limit: number): void => {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string') continue;
      const at = v.search(invalid);
      if (at >= 0) problems.push(`${label}: invalid character at ${at}`);
      if (v.length > limit) problems.push(`${label}: longer than ${limit}`);
    }
  };
  const isUrl = (v: string): boolean =>
    URL.canParse(v.replace(/^git\+/, '')) && new URL(v.replace(/^git\+/, '')).host !== '';
  const url = (label: string, value: unknown): void => {
    const v = typeof value === 'object' && value !== null ? text((value as { url?: unknown }).url) : text(value);
    if (v && !isUrl(v)) problems.push(`${label}: not a URL`);
    if (v && v.length > 255) problems.push(`${label}: longer than 255`);
  };
  const oneOf = (label: string, value: unknown, allowed: string[], orUrl = false): void => {
    const v = text(value);
    if (v && !allowed.includes(v) && !(orUrl && isUrl(v)))
      problems.push(`${label}: not one of ${allowed.join(', ')}${orUrl ? ' or a URL' : ''}`);
  };
  field('displayName', m.displayName, 255);
  field('description', m.description, 2048);
  field('categories', m.categories, 255);
  field('keywords', m.keywords, 255);
  field('license', m.license, 255);
  url('homepage', m.homepage);
  url('repository', m.repository);
  url('bugs', m.bugs);
  oneOf('markdown', m.markdown, ['github', 'standard']);
  const banner = (m.galleryBanner ?? {}) as { color?: unknown; theme?: unknown };
  field('galleryBanner.color', banner.color, 16);
  oneOf('galleryBanner.theme', banner.theme, ['dark', 'light']);
  oneOf('qna', m.qna, ['marketplace', 'false'], true);
  return problems;
}
