/** The public face of the org module: other modules import only what is exported here (the boundary check enforces it). */
export { containsPattern } from './users-repo.ts';
