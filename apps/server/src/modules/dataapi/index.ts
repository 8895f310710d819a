/** The public face of the dataapi module: other modules import only what is exported here (the boundary check enforces it). */
export { registerDataApiRoutes } from './routes.ts';
