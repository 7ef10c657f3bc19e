// The editor's scanner thread (dist/scanWorker.js): scans the texts it is sent, so a large document never holds the
// extension host's event loop, which every other extension shares (scanThread.ts).
import { parentPort } from 'node:worker_threads';
import { type ScanOptions, scanText } from './scanner.ts';

parentPort?.on('message', ({ id, text, options }: { id: number; text: string; options: ScanOptions }) => {
  try {
    parentPort!.postMessage({ id, findings: scanText(text, options) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
