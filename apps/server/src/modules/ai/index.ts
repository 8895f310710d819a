/** The public face of the ai module: other modules import only what is exported here (the boundary check enforces it). */
export { registerAiRoutes } from './routes.ts';
