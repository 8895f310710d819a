/** The public face of the export module: other modules import only what is exported here (the boundary check enforces it). */
export { attachmentHeader, sendDownload } from './routes.ts';
