// What an activation adds when VS Code runs Keyward's own in-host tests (test/e2e/suite): the probes that answer its
// questions and keep what it told, and the window onto its parts that activate() returns. esbuild.js (ON_DEMAND)
// builds this file as dist/testMode.js, which activate() loads in Test mode only: an ordinary activation neither
// holds nor parses it (bench/bundle.ts).
export { PanelProbe } from '../chat/panelProbe.ts';
export { DialogProbe } from '../dialogProbe.ts';
export { testApi } from './testApi.ts';
