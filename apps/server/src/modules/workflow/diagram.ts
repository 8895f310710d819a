import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { deleteOlderThan, fileStorage } from '../../platform/files/storage.ts';
import { renderBpmnDiagram } from '../../platform/render/bpmn-diagram.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { readableInstance } from './queries.ts';
import { findDefinition } from './repo.ts';

/**
 * GET diagram-view: the instance's process drawn with its finished steps and current step marked.
 * Images are kept per state (definition, finished ids, current step), so the timeline page and the
 * to-do list opening the same instance draw it once; a step changes the key. A drawing is also
 * stored as `workflow-diagrams/<key>.png` in the file storage (docs/storage.md), so another
 * process answers the same state without starting Chromium; stored drawings older than
 * DIAGRAM_KEEP_DAYS are removed (at most hourly, after a draw) and drawn again if asked for.
 */
export const DIAGRAM_KEEP_DAYS = 30;
const DIAGRAM_PREFIX = 'workflow-diagrams/';
const lastSweep = new WeakMap<object, number>();
const CACHE_SIZE = 200;
const caches = new WeakMap<AppContext, Map<string, Promise<Buffer>>>();

export async function diagramImage(ctx: AppContext, session: Session, processInstanceId: string): Promise<{ png: Buffer; etag: string }> {
  const instance = await readableInstance(ctx, session, processInstanceId);
  const finished = JSON.parse(instance.finishedActivities) as string[];
  const current = instance.status === 'running' && instance.currentActivityId ? [instance.currentActivityId] : [];
  const key = createHash('sha256')
    .update(JSON.stringify([instance.definitionId, finished, current]))
    .digest('hex');
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  let image = cache.get(key);
  if (!image) {
    const definition = await findDefinition(ctx.db, instance.definitionId);
    if (!definition) throw new Error(`definition ${instance.definitionId} is gone`);
    image = storedOrDrawn(ctx, key, definition.xml, finished, current);
    cache.set(key, image);
    image.catch(() => cache.delete(key));
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return { png: await image, etag: `"${key.slice(0, 32)}"` };
}

/** Draws made so far in this context (tests: a second request for the same state draws nothing). */
export function diagramCacheSize(ctx: AppContext): number {
  return caches.get(ctx)?.size ?? 0;
}

/** The stored drawing of a state, or a new one (stored for the other processes). */
async function storedOrDrawn(ctx: AppContext, key: string, xml: string, finished: string[], current: string[]): Promise<Buffer> {
  const files = fileStorage(ctx);
  const stored = await files.read(`${DIAGRAM_PREFIX}${key}.png`);
  if (stored) return stored;
  const png = await renderBpmnDiagram(rendererOf(ctx), { xml, finished, current });
  await files.put(`${DIAGRAM_PREFIX}${key}.png`, png, { contentType: 'image/png' });
  const now = Date.now();
  if (now - (lastSweep.get(ctx.config) ?? 0) > 3_600_000) {
    lastSweep.set(ctx.config, now);
    await deleteOlderThan(files, DIAGRAM_PREFIX, new Date(now - DIAGRAM_KEEP_DAYS * 86_400_000));
  }
  return png;
}
