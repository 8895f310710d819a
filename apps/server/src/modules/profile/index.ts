/** The public face of the profile module: other modules import only what is exported here (the boundary check enforces it). */
export { getUserInfo } from './service.ts';
