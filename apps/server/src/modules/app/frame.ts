import { bigdataIdOf, frameSettingsSchema, type AppFrame, type FrameSettings } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../perm/index.ts';
import { findUserExtJson, readConfig, writeConfig } from './repo.ts';

/**
 * The full-screen dashboard frame (spec 3 §2 "Full-screen dashboard frame and embedded view";
 * docs/apps.md): a user whose userExtJson carries bigdataId sees that board full screen after
 * signing in; everyone else the default address of 系统设置 (sys_config key frameSettings),
 * or the usual home page when none is set. The board keeps its own permission when opened.
 */
const FRAME_KEY = 'frameSettings';

export async function getFrameSettings(ctx: AppContext): Promise<FrameSettings> {
  const text = await readConfig(ctx.db, FRAME_KEY);
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = {};
  }
  const result = frameSettingsSchema.safeParse(parsed);
  return result.success ? result.data : { defaultAddress: '' };
}

export async function saveFrameSettings(ctx: AppContext, input: FrameSettings): Promise<FrameSettings> {
  await writeConfig(ctx.db, FRAME_KEY, JSON.stringify(input));
  return getFrameSettings(ctx);
}

export async function frameOf(ctx: AppContext, caller: Caller): Promise<AppFrame> {
  const [ext, settings] = await Promise.all([findUserExtJson(ctx.db, caller.userId), getFrameSettings(ctx)]);
  return { bigdataId: bigdataIdOf(ext), defaultAddress: settings.defaultAddress };
}
