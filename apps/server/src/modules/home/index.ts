/** The public face of the home module: other modules import only what is exported here (the boundary check enforces it). */
export { registerHomeRoutes } from './routes.ts';
