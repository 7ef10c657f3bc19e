// The README is a user's page (issue 32): what Keyward does, install, the two commands, settings and a security
// summary, within 250 lines; depth lives in docs/. Text moved between pages keeps its cross-references only if
// every relative link still lands on a file and every #anchor on a heading, as GitHub makes them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  return new Set([...prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** Each relative link of a page that does not land: a missing file or a missing heading. */
export function brokenLinks(page: string): string[] {
  const links = [...prose(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return links.flatMap((link) => {
    if (/^[a-z]+:/i.test(link)) return [];
    const [file, anchor] = link.split('#') as [string, string | undefined];
    const target = file === '' ? page : normalize(join(dirname(page), file));
    if (!existsSync(target)) return [`${page}: ${link}: no file ${target}`];
    if (anchor === undefined || !target.endsWith('.md')) return [];
    return anchorsOf(target).has(anchor) ? [] : [`${page}: ${link}: no heading #${anchor} in ${target}`];
  });
}

describe('the docs', () => {
  it('keep the README a user’s page, with the two commands a fresh machine runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
    for (const page of ['cli', 'teams', 'security-model', 'sandbox', 'architecture', 'editor'])
      expect(readme).toContain(`(docs/${page}.md`);
  });

  it.each(PAGES)('%s: every relative link lands on a file and a heading', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  // The Marketplace page and the editor's extension page show the VSIX's README, where docs/ is not: vsce rewrites
  // its relative links against a GitHub `repository` (src/package.ts, MarkdownProcessor.guessBaseUrls).
  it('leave docs/ out of the VSIX, reached through the repository vsce rewrites the links against', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { repository?: { url?: string } };
    expect(manifest.repository?.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
    expect(readFileSync('.vscodeignore', 'utf8')).not.toMatch(/^!docs/m);
  });

  it('finds the anchors GitHub makes', () => {
    expect(slug('Is a found key live? (`keyward scan --verify`)')).toBe('is-a-found-key-live-keyward-scan---verify');
    expect(slug('What `keyward scan` reads, and what it says when it cannot')).toBe(
      'what-keyward-scan-reads-and-what-it-says-when-it-cannot',
    );
    expect(slug('`.keywardignore`')).toBe('keywardignore');
  });
});
