import type { AppContext } from '../../context.ts';
import { RenderPool } from './pool.ts';

export { isRendererAvailable, RenderError, RenderPool, type RenderOptions, type RenderTarget } from './pool.ts';
export { renderMessages } from './messages.ts';

/**
 * One pool per application context (serving or worker process): created on first use,
 * closed by `closeRenderer` when the process shuts down (server.ts). Creating it launches
 * nothing; Chromium starts with the first render.
 */
const pools = new WeakMap<AppContext, RenderPool>();

export function rendererOf(ctx: AppContext): RenderPool {
  let pool = pools.get(ctx);
  if (!pool) {
    pool = new RenderPool({ executablePath: ctx.config.chromiumPath });
    pools.set(ctx, pool);
  }
  return pool;
}

export async function closeRenderer(ctx: AppContext): Promise<void> {
  const pool = pools.get(ctx);
  pools.delete(ctx);
  await pool?.close();
}
