// Names the entries of one container (an archive level, a source map's
// sources) so that no two share a name: two entries called "a.js" are two
// files, and each finding and skip must say which one it is in.

/**
 * Hands out names as they come: the first of a name keeps it, a later one gets
 * an occurrence index (`a.js[2]`), never one already handed out.
 */
export class EntryNames {
  // A Map, not an object: an entry named "__proto__" or "constructor" is a name like any other.
  private readonly used = new Map<string, number>();

  name(name: string): string {
    const seen = this.used.get(name);
    if (seen === undefined) {
      this.used.set(name, 1);
      return name;
    }
    for (let n = seen + 1; ; n++) {
      const candidate = `${name}[${n}]`;
      if (this.used.has(candidate)) continue;
      this.used.set(name, n);
      this.used.set(candidate, 1);
      return candidate;
    }
  }
}
