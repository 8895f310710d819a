/** The public face of the market module: other modules import only what is exported here (the boundary check enforces it). */
export { registerMarketRoutes } from './routes.ts';
