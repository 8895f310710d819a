/** The public face of the audience-profile module: other modules import only what is exported here (the boundary check enforces it). */
export { registerProfileCompareRoutes } from './routes.ts';
