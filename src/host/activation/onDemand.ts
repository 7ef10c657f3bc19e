// The handlers activation never runs, loaded on a command's first run (dist/commands.js, src/host/onDemandCommands.ts).
export const onDemand = () => import('../onDemandCommands.ts');
