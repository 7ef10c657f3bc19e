// One line on a terminal that says how far a long scan is: files or commits done (of how many), megabytes read, the
// rate and the time left. Nothing for the first seconds (a short scan prints only its report), and nothing at all
// when standard error is no terminal (a pipe, a file, CI's log): there a line redrawn with carriage returns is noise.
// The scan calls update() as it goes; the line is redrawn at most every PERIOD_MS and wiped by end().

/** A scan shorter than this prints no progress. */
export const PROGRESS_AFTER_MS = 2000;
const PERIOD_MS = 200;
const MB = 1024 * 1024;

export interface ProgressOptions {
  write: (text: string) => unknown;
  /** Asked once, when the line is first due (loading the terminal check costs a short scan nothing). */
  isTerminal: () => boolean;
  now?: () => number;
  afterMs?: number;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** "12 s", "3 min 5 s", "1 h 2 min". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export class ScanProgress {
  private readonly started: number;
  private readonly options: ProgressOptions;
  private readonly unit: string;
  private total: number | undefined;
  /** undefined: not asked yet; false: no terminal, never print. */
  private terminal: boolean | undefined;
  private drawn = 0;
  private shown = false;

  /** `unit`: what is counted ("files", "commits"); `total`: how many there are, when known. */
  constructor(unit: string, total: number | undefined, options: ProgressOptions) {
    this.options = options;
    this.unit = unit;
    this.total = total;
    this.started = this.now();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** `total`, when given, is how many there are as the scan learned it. */
  update(done: number, bytes: number, total?: number): void {
    if (total !== undefined) this.total = total;
    if (this.terminal === false) return;
    const now = this.now();
    const elapsed = now - this.started;
    if (elapsed < (this.options.afterMs ?? PROGRESS_AFTER_MS) || now - this.drawn < PERIOD_MS) return;
    this.terminal ??= this.options.isTerminal();
    if (!this.terminal) return;
    this.drawn = now;
    this.shown = true;
    this.options.write(`\r\x1b[K${this.line(done, bytes, elapsed / 1000)}`);
  }

  /** The text of the line (without the carriage return that redraws it). */
  line(done: number, bytes: number, seconds: number): string {
    const rate = seconds > 0 ? done / seconds : 0;
    const of = this.total !== undefined ? ` of ${count(this.total)}` : '';
    const parts = [
      `${count(done)}${of} ${this.unit}`,
      `${(bytes / MB).toFixed(1)} MB`,
      `${count(rate)} ${this.unit}/s, ${(seconds > 0 ? bytes / MB / seconds : 0).toFixed(1)} MB/s`,
    ];
    if (this.total !== undefined && rate > 0 && done <= this.total)
      parts.push(`about ${duration((this.total - done) / rate)} left`);
    return `keyward scan: ${parts.join(', ')}`;
  }

  /** Wipes the line, if one was drawn, so the report starts on a clean line. */
  end(): void {
    if (this.shown) this.options.write('\r\x1b[K');
    this.shown = false;
    this.terminal = false;
  }
}
