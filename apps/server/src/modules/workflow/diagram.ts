import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { renderBpmnDiagram } from '../../platform/render/bpmn-diagram.ts';
import { rendererOf } from '../../platform/render/renderer.ts';
import { readableInstance } from './queries.ts';
import { findDefinition } from './repo.ts';

/**
 * GET diagram-view: the instance's process drawn with its finished steps and current step marked.
 * Images are kept per state (definition, finished ids, current step), so the timeline page and the
 * to-do list opening the same instance draw it once; a step changes the key.
 */
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
    image = renderBpmnDiagram(rendererOf(ctx), { xml: definition.xml, finished, current });
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
