import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { RenderPool } from './pool.ts';

/**
 * A BPMN process diagram as a PNG, drawn by bpmn-js (its browser bundle) in the shared Chromium
 * pool: the BPMN file's own layout (BPMNDiagram), finished activities and flows in green, the
 * steps waiting now in orange, labels in the CJK fonts the machine has (fonts-noto-cjk). The
 * page is a blank data: document marked ready at once; the bundle is injected into it, so the
 * render needs no server URL and no token.
 */

export interface BpmnDiagramInput {
  xml: string;
  /** Element ids (activities and sequence flows) already completed. */
  finished: string[];
  /** Element ids waiting now (the current step). */
  current: string[];
  width?: number;
  height?: number;
}

const require = createRequire(import.meta.url);
let bundle: string | undefined;
function viewerBundle(): string {
  bundle ??= fs.readFileSync(require.resolve('bpmn-js/dist/bpmn-viewer.production.min.js'), 'utf8');
  return bundle;
}

const FONT = `'Noto Sans CJK SC', 'Noto Sans SC', 'WenQuanYi Micro Hei', 'Source Han Sans SC', sans-serif`;
const STYLE = `
  html, body { margin: 0; background: #fff; }
  #canvas { width: 100vw; height: 100vh; }
  .djs-label, text { font-family: ${FONT} !important; }
  .finished:not(.djs-connection) .djs-visual > :nth-child(1) { stroke: #389e0d !important; fill: #f6ffed !important; }
  .djs-connection.finished .djs-visual > path { stroke: #389e0d !important; }
  .current .djs-visual > :nth-child(1) { stroke: #fa8c16 !important; stroke-width: 3px !important; fill: #fff7e6 !important; }
  .bjs-powered-by { display: none; }
`;
const PAGE = `data:text/html;charset=utf-8,${encodeURIComponent(
  `<!doctype html><html lang="zh-CN" data-board-state="ready"><head><meta charset="utf-8"><style>${STYLE}</style></head><body><div id="canvas"></div></body></html>`,
)}`;

/** The part of bpmn-js' Viewer used here (it runs in the page, where the bundle defines window.BpmnJS). */
interface BpmnViewer {
  importXML(xml: string): Promise<unknown>;
  get(name: 'canvas'): { addMarker(id: string, marker: string): void; zoom(kind: string, center: string): void };
  get(name: 'elementRegistry'): { get(id: string): unknown };
}

export async function renderBpmnDiagram(pool: RenderPool, input: BpmnDiagramInput): Promise<Buffer> {
  const width = input.width ?? 900;
  const height = input.height ?? 360;
  return pool.withReadyPage({ url: PAGE, width, height, deviceScaleFactor: 1.5, timeoutMs: 30_000 }, async (page) => {
    await page.addScriptTag({ content: viewerBundle() });
    const error = await page.evaluate(
      async ({ xml, finished, current }) => {
        // Runs in the page (no DOM types on the server): the bundle defined BpmnJS on the window.
        const page = globalThis as unknown as { BpmnJS: new (options: { container: string }) => BpmnViewer; document: { fonts: { ready: Promise<unknown> } } };
        const viewer = new page.BpmnJS({ container: '#canvas' });
        try {
          await viewer.importXML(xml);
        } catch (e) {
          return String(e);
        }
        const canvas = viewer.get('canvas');
        const registry = viewer.get('elementRegistry');
        for (const id of finished) if (registry.get(id)) canvas.addMarker(id, 'finished');
        for (const id of current) if (registry.get(id)) canvas.addMarker(id, 'current');
        canvas.zoom('fit-viewport', 'auto');
        await page.document.fonts.ready;
        return null;
      },
      { xml: input.xml, finished: input.finished, current: input.current },
    );
    if (error) throw new Error(`bpmn-js could not draw the process: ${error}`);
    return page.screenshot({ type: 'png', animations: 'disabled' });
  });
}
