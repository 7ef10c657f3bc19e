// Rasterises media/store/icon.svg into media/store/icon.png, the 128 px PNG the Marketplace and Open VSX
// require (`icon` in package.json; both refuse an SVG). Run it after changing the SVG:
//   node scripts/storeIcon.ts
// It needs a Chromium on the PATH (Debian's `chromium`, as the real-host tests do); the PNG is committed,
// so building and packaging never need one.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SIZE = 128;
const svg = resolve('media/store/icon.svg');
const png = resolve('media/store/icon.png');
const browser = process.env.CHROMIUM ?? 'chromium';

execFileSync(
  browser,
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    // Transparent outside the rounded square.
    '--default-background-color=00000000',
    `--window-size=${SIZE},${SIZE}`,
    `--screenshot=${png}`,
    pathToFileURL(svg).href,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
process.stdout.write(`media/store/icon.png: ${statSync(png).size} bytes, ${SIZE}x${SIZE}\n`);
