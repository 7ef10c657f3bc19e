// Builds the `keyward` npm package (packages/cli) into keyward-cli.tgz at the repository root,
// or where `--out FILE` says: the CLI bundled by esbuild with everything it uses, so the package
// has no runtime dependencies and installs offline. The version is the extension's.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cliBuilds } from './cliBuilds.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(root, 'keyward-cli.tgz'));

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const manifest = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as Record<string, unknown>;

const stage = mkdtempSync(join(tmpdir(), 'keyward-cli-'));
try {
  // The package's version comes first after its name, as npm writes it.
  const { name, ...rest } = manifest;
  writeFileSync(join(stage, 'package.json'), JSON.stringify({ name, version, ...rest }, null, 2) + '\n');
  copyFileSync(join(root, 'packages/cli/README.md'), join(stage, 'README.md'));
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  mkdirSync(join(stage, 'dist'));

  const common: esbuild.BuildOptions = {
    bundle: true,
    minify: true,
    legalComments: 'none',
    platform: 'node',
    format: 'cjs',
    // `scan` runs on Node 20 (a pre-commit hook may get the system's Node); ask/status check for 22.
    target: 'node20',
    logLevel: 'warning',
  };
  await Promise.all([
    // The launcher (the bin) and the bundle it loads; the HTTP stack and the archive unpackers in files of their
    // own, loaded on first use, as in the extension.
    ...cliBuilds(join(stage, 'dist/keyward.js'), common, version).map((options) => esbuild.build(options)),
    esbuild.build({
      ...common,
      entryPoints: [join(root, 'src/core/undiciLean.cjs')],
      outfile: join(stage, 'dist/undici.js'),
    }),
    esbuild.build({
      ...common,
      entryPoints: [join(root, 'src/core/scan/archiveCodecs.ts')],
      outfile: join(stage, 'dist/archive.js'),
    }),
  ]);

  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stage], {
    cwd: stage,
    encoding: 'utf8',
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as { filename: string; size: number; entryCount: number }[];
  renameSync(join(stage, packed!.filename), out);
  process.stdout.write(
    `keyward ${version}: ${out} (${packed!.entryCount} files, ${(packed!.size / 1024).toFixed(0)} KiB)\n`,
  );
} finally {
  rmSync(stage, { recursive: true, force: true });
}
