// The README's pictures are files of this repository (media/readme/, screenshots from the real-host UI run): a
// link that points nowhere shows as a broken image on GitHub and in the stores, and nothing else would notice.
// They stay out of the VSIX (.vscodeignore lists what ships); the stores read them from the repository.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
/** Markdown images and HTML <img> tags: their targets. */
const targets = [
  ...[...readme.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
  ...[...readme.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]!),
];

describe("the README's images", () => {
  it('has the screenshots it promises', () => {
    expect(targets.length).toBeGreaterThanOrEqual(2);
  });

  it.each(targets)('%s is a PNG in the repository, under media/readme/', (target) => {
    expect(target).not.toMatch(/^[a-z]+:/i);
    const path = normalize(decodeURI(target.replace(/^\.\//, '')));
    expect(path.startsWith(join('media', 'readme'))).toBe(true);
    expect(existsSync(path)).toBe(true);
    expect(path).toMatch(/\.png$/);
    // Small enough for a README: a screenshot, not a recording.
    expect(statSync(path).size).toBeLessThan(300_000);
  });

  it('keeps them out of the VSIX', () => {
    const ignore = readFileSync('.vscodeignore', 'utf8');
    expect(ignore).not.toMatch(/^!media\/readme/m);
    expect(ignore).not.toMatch(/^!media\/\*\*/m);
  });
});
