/** The public face of the ppt module: other modules import only what is exported here (the boundary check enforces it). */
export { requireViewablePpt } from './access.ts';
export { assemblePdf } from './pdf-document.ts';
