/** The public face of the alert module: other modules import only what is exported here (the boundary check enforces it). */
export { registerAlertRoutes } from './routes.ts';
export { alertJobs } from './jobs.ts';
