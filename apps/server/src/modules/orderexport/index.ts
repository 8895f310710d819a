/** The public face of the orderexport module: other modules import only what is exported here (the boundary check enforces it). */
export { registerOrderExportRoutes } from './routes.ts';
export { orderExportJobs } from './jobs.ts';
