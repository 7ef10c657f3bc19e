// Allow comments on long (minified) lines are looked up, not read per key: the
// lookup must allow exactly what reading the line allowed.
import { expect, test } from 'vitest';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { StreamScan } from '../../../src/core/scan/streamScan.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const filler = (n: number) => 'var a=1;'.repeat(n);

test('a marker on a long line allows its keys, wherever on the line', () => {
  const keys = [routerKey(), directKey()];
  const text = `${filler(2000)}"${keys[0]}";${filler(2000)}"${keys[1]}"; // gitleaks:allow\n${filler(10)}`;
  expect(scanText(text)).toEqual([]);
});

test('a next-line marker at the end of a long line allows the keys of the next long line only', () => {
  const [a, b] = [routerKey(), routerKey()];
  const text = `${filler(1000)} // keyward-ignore-next-line\n${filler(1000)}"${a}"\n${filler(1000)}"${b}"\n`;
  const findings = scanText(text);
  expect(findings.map((f) => f.line)).toEqual([2]);
});

test('a long line without a marker reports every key, a marker two lines up does not count', () => {
  const keys = [routerKey(), routerKey(), routerKey()];
  const text = `// keyward-ignore-next-line\n\n${keys.map((k) => `${filler(700)}"${k}"`).join(';')}\n`;
  expect(scanText(text)).toHaveLength(3);
  const stream = new StreamScan({}, 1 << 16);
  const bytes = Buffer.from(`${filler(20_000)}${text}`);
  for (let at = 0; at < bytes.length; at += 10_000) stream.push(bytes.subarray(at, at + 10_000));
  expect(stream.end()).toHaveLength(3);
});
