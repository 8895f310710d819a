/** The public face of the heatmap module: other modules import only what is exported here (the boundary check enforces it). */
export { registerHeatmapRoutes } from './routes.ts';
