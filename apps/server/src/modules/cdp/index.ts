/** The public face of the cdp module: other modules import only what is exported here (the boundary check enforces it). */
// The tables' types join the store's Database type here, so every program that loads the module sees them.
import './schema.ts';

export { registerCdpRoutes } from './routes.ts';
export { cdpJobs } from './jobs.ts';
