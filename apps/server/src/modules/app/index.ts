/** The public face of the app module: other modules import only what is exported here (the boundary check enforces it). */
export { registerAppRoutes } from './routes.ts';
