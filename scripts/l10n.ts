// Writes the l10n bundles from the host's sources: `npm run l10n` after adding or changing a string.
//   l10n/bundle.l10n.json           the English messages, for translators (l10n-dev's format)
//   l10n/bundle.l10n.qps-ploc.json  the pseudo-locale, which the tests use to find strings that skip l10n.t
// `node scripts/l10n.ts --check` writes nothing and fails when either file is out of date.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '../src/core/services/descriptors.ts';
import { ERROR_KIND_RULES } from '../src/shared/errorKindRules.ts';
import { SERVICE_IDS } from '../src/shared/serviceIds.ts';
import {
  bundleOf,
  pseudoLocalise,
  scanHostSource,
  scanModuleMessages,
  type HostStrings,
  type L10nMessage,
} from './l10nStrings.ts';

/** Where the host calls `l10n.t`. */
export const HOST_SOURCES = ['src/host', 'src/extension.ts'];
/** Where the service modules write the notices and remedies the host localises. */
export const MODULE_SOURCES = 'src/core/services';

/**
 * Messages the host passes to `t` from data rather than as literals: the English lives once in a table
 * row (the error kinds', the services'), so the bundle reads the tables.
 */
export function dataMessages(): L10nMessage[] {
  const rules = Object.values(ERROR_KIND_RULES);
  const services = SERVICE_IDS.map((id) => SERVICES[id]);
  return [
    ...rules.map((rule) => rule.title),
    ...rules.flatMap((rule) => (rule.wait === null ? [] : [rule.wait])),
    ...services.flatMap((s) => [s.displayName, s.label, s.shortLabel, s.keyPrompt, s.statusBar.name]),
    ...services.flatMap((s) => (s.accountKey ? [s.accountKey.name] : [])),
  ]
    .map((message) => ({ message }))
    .concat(sourceFiles([MODULE_SOURCES]).flatMap((file) => scanModuleMessages(file, readFileSync(file, 'utf8'))));
}

function sourceFiles(roots: string[]): string[] {
  return roots
    .flatMap((root) =>
      root.endsWith('.ts')
        ? [root]
        : readdirSync(root, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile() && e.name.endsWith('.ts'))
            .map((e) => join(e.parentPath, e.name).replaceAll('\\', '/')),
    )
    .sort();
}

/** Every host file read, merged. */
export function hostStrings(): HostStrings {
  const all: HostStrings = { messages: [], dynamic: [], bypasses: [] };
  for (const file of sourceFiles(HOST_SOURCES)) {
    const found = scanHostSource(file, readFileSync(file, 'utf8'));
    all.messages.push(...found.messages);
    all.dynamic.push(...found.dynamic);
    all.bypasses.push(...found.bypasses);
  }
  return all;
}

/** The two bundles' text, as written to disk. */
export function bundles(): Record<string, string> {
  const english = bundleOf([...hostStrings().messages, ...dataMessages()]);
  const pseudo = Object.fromEntries(
    Object.entries(english).map(([key, value]) => [
      key,
      pseudoLocalise(typeof value === 'string' ? value : value.message),
    ]),
  );
  const text = (json: unknown) => `${JSON.stringify(json, null, 2)}\n`;
  return { 'l10n/bundle.l10n.json': text(english), 'l10n/bundle.l10n.qps-ploc.json': text(pseudo) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, text] of Object.entries(bundles())) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // Missing: written below, or named as stale.
    }
    if (current === text) continue;
    if (check) stale.push(file);
    else writeFileSync(file, text);
  }
  if (stale.length > 0) {
    process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`npm run l10n\` and commit the bundles.\n`);
    process.exit(1);
  }
  const { bypasses } = hostStrings();
  for (const b of bypasses) process.stderr.write(`${b.file}:${b.line}: shown without vscode.l10n.t: ${b.text}\n`);
  if (bypasses.length > 0) process.exit(1);
}
