// The progress line of a long scan (scanProgress.ts), on a clock the test turns: nothing for the first seconds,
// then one line redrawn in place with the count, megabytes, rate and time left; nothing at all off a terminal.
import { describe, expect, it } from 'vitest';
import { PROGRESS_AFTER_MS, ScanProgress, duration } from '../../../src/core/scan/scanProgress.ts';

function progress(terminal: boolean, total?: number) {
  const clock = { now: 0 };
  const written: string[] = [];
  let asked = 0;
  const line = new ScanProgress('files', total, {
    write: (text) => written.push(text),
    isTerminal: () => (asked++, terminal),
    now: () => clock.now,
  });
  return { line, clock, written, asked: () => asked };
}

describe('the progress line of a long scan', () => {
  it('says nothing for the first seconds, then counts, rates and the time left on one redrawn line', () => {
    const { line, clock, written, asked } = progress(true, 1000);
    clock.now = PROGRESS_AFTER_MS - 1;
    line.update(100, 10 << 20);
    expect(written).toEqual([]);
    // The terminal is asked only once the line is due: a short scan loads nothing to ask it.
    expect(asked()).toBe(0);
    clock.now = 2500;
    line.update(250, 25 << 20);
    expect(written).toEqual([
      '\r\x1b[Kkeyward scan: 250 of 1,000 files, 25.0 MB, 100 files/s, 10.0 MB/s, about 8 s left',
    ]);
    // At most five redraws a second.
    clock.now = 2600;
    line.update(260, 26 << 20);
    expect(written).toHaveLength(1);
    clock.now = 5000;
    line.update(500, 50 << 20);
    expect(written[1]).toBe(
      '\r\x1b[Kkeyward scan: 500 of 1,000 files, 50.0 MB, 100 files/s, 10.0 MB/s, about 5 s left',
    );
    line.end();
    expect(written.at(-1)).toBe('\r\x1b[K');
    expect(asked()).toBe(1);
  });

  it('prints nothing when standard error is no terminal (a pipe, a file, a CI log)', () => {
    const { line, clock, written } = progress(false, 1000);
    for (clock.now = 0; clock.now < 20_000; clock.now += 100) line.update(clock.now / 10, clock.now * 1000);
    line.end();
    expect(written).toEqual([]);
  });

  it('without a total, counts without a time left; a total learned later is used', () => {
    const { line, clock, written } = progress(true, undefined);
    clock.now = 3000;
    line.update(30, 3 << 20);
    expect(written[0]).toBe('\r\x1b[Kkeyward scan: 30 files, 3.0 MB, 10 files/s, 1.0 MB/s');
    clock.now = 4000;
    line.update(40, 4 << 20, 100);
    expect(written[1]).toMatch(/40 of 100 files, .* about 6 s left$/);
  });

  it('writes durations as a person reads them', () => {
    expect([duration(4.4), duration(65), duration(3725)]).toEqual(['4 s', '1 min 5 s', '1 h 2 min']);
  });
});
