// Finds the oldest VS Code whose API covers what src/ calls, for `engines.vscode`: it type-checks src/
// against older @types/vscode releases (fetched with `npm pack` into a temporary folder, never installed)
// and searches for the oldest one that compiles. The errors one release below name the API that sets the
// floor. Needs the npm registry; not part of `npm test`.
//   node scripts/enginesFloor.ts            search from 1.73 (vscode.l10n) to the installed typings
//   node scripts/enginesFloor.ts 1.104.0    check one version and print what it lacks
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const INSTALLED = resolve('node_modules/@types/vscode/index.d.ts');
/**
 * The API is not the only floor: dist/extension.js targets Node 22 (esbuild.js; undici needs it), and the
 * desktop extension host runs Node 22 from VS Code 1.101 on (Electron 35, Node 22.15; 1.100 ran Node 20).
 */
export const RUNTIME_FLOOR = { version: '1.101.0', why: 'the extension host runs Node 22 (Electron 35)' };
/** `vscode.l10n`, which every host string goes through, came in 1.73: nothing older can run Keyward. */
const OLDEST = '1.73.0';

const work = mkdtempSync(join(tmpdir(), 'keyward-engines-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function typings(version: string): string {
  const dir = join(work, version);
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', '--silent', `@types/vscode@${version}`, '--pack-destination', dir], { stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  // The tarball's top folder is `vscode/` (DefinitelyTyped's), not npm's usual `package/`.
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir, '--strip-components=1']);
  return readFileSync(join(dir, 'index.d.ts'), 'utf8');
}

function sources(): string[] {
  return readdirSync('src', { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => resolve(e.parentPath, e.name));
}

/** The compiler's complaints about src/ when `vscode` is the given typings. */
function errorsWith(dts: string): string[] {
  const { config } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, process.cwd());
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (resolve(file) === INSTALLED ? dts : read(file));
  host.getSourceFile = (file, language, onError, create) =>
    resolve(file) === INSTALLED
      ? ts.createSourceFile(file, dts, language)
      : getSourceFile(file, language, onError, create);
  const program = ts.createProgram(sources(), options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && resolve(d.file.fileName).startsWith(resolve('src')))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      const where = `${d.file!.fileName.slice(resolve('.').length + 1)}:${line + 1}`;
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`;
    });
}

function versions(): string[] {
  const all = JSON.parse(execFileSync('npm', ['view', '@types/vscode', 'versions', '--json'], { encoding: 'utf8' }));
  const installed = JSON.parse(readFileSync('node_modules/@types/vscode/package.json', 'utf8')).version as string;
  const key = (v: string) =>
    v
      .split('.')
      .map(Number)
      .reduce((n, part) => n * 1000 + part, 0);
  // One per minor release (its last patch), from the oldest usable to the installed one.
  const byMinor = new Map<string, string>();
  for (const v of all as string[])
    if (key(v) >= key(OLDEST) && key(v) <= key(installed)) byMinor.set(v.split('.').slice(0, 2).join('.'), v);
  return [...byMinor.values()].sort((a, b) => key(a) - key(b));
}

const asked = process.argv[2];
if (asked) {
  const errors = errorsWith(typings(asked));
  process.stdout.write(
    errors.length === 0 ? `${asked}: src/ compiles\n` : `${asked} lacks:\n  ${errors.join('\n  ')}\n`,
  );
  process.exit(errors.length === 0 ? 0 : 1);
}

// Binary search: the API only grows, so "compiles" is monotonic in the version.
const list = versions();
let low = 0;
let high = list.length - 1;
const seen = new Map<string, string[]>();
const check = (v: string) => seen.get(v) ?? seen.set(v, errorsWith(typings(v))).get(v)!;
while (low < high) {
  const mid = Math.floor((low + high) / 2);
  const errors = check(list[mid]!);
  process.stdout.write(`${list[mid]}: ${errors.length === 0 ? 'compiles' : `${errors.length} errors`}\n`);
  if (errors.length === 0) high = mid;
  else low = mid + 1;
}
const floor = list[low]!;
process.stdout.write(`\nAPI floor: ${floor}\n`);
if (low > 0) {
  const below = list[low - 1]!;
  process.stdout.write(`set by what ${below} lacks:\n  ${check(below).join('\n  ')}\n`);
}
const key = (v: string) =>
  v
    .split('.')
    .map(Number)
    .reduce((n, part) => n * 1000 + part, 0);
const engines = key(floor) >= key(RUNTIME_FLOOR.version) ? floor : RUNTIME_FLOOR.version;
process.stdout.write(
  `runtime floor: ${RUNTIME_FLOOR.version} (${RUNTIME_FLOOR.why})\nengines.vscode: ^${engines}, @types/vscode ${engines}\n`,
);
