// KEYWARD_BENCH_QUICK=1: the sections that open things (activations, an emulator, agents) as
// small as they can be, the others skipped, so a test can check in seconds that the bench
// ends by itself. Figures are meaningless then.
export const QUICK = process.env.KEYWARD_BENCH_QUICK === '1';
