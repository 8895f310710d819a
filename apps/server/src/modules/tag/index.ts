/** The public face of the tag module: other modules import only what is exported here (the boundary check enforces it). */
export { registerTagRoutes } from './routes.ts';
