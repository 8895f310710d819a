/** The public face of the cdp module: other modules import only what is exported here (the boundary check enforces it). */
export { registerCdpRoutes } from './routes.ts';
export { cdpJobs } from './jobs.ts';
