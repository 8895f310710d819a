import { z } from 'zod';
import { requiredText } from './common.ts';
import { APP_NAME_MAX_LENGTH, appMessages, MAX_APP_MENUS, MENU_NAME_MAX_LENGTH } from './app-constants.ts';

/**
 * Apps (spec 1 §2.12, §3 "App", "Menu", §4 "App menus", §5, §9; spec 2 §3, §7; issue 24;
 * docs/apps.md): a named set of dashboards and self-service reports under a two-level menu,
 * opened on phones at /m/app/{appId}.
 *
 * Publish status (docs/apps.md "Publish status"): 0 unpublished, 1 published (spec 1). Spec 2's
 * "apps with publishStatus 2 are offered for grants" names the same published state; the API
 * stores and answers only 0 and 1, and grants offer and accept published apps only.
 */

export { APP_PATHS } from './constants.ts';

export * from './app-constants.ts';

/** '1' top sub-menu, '2' pop-up sub-menu. */
export const MENU_SHOW_TYPES = ['1', '2'] as const;

const menuIcon = z.string().trim().max(100).nullish();

type AppMenuShape = {
  menuId: number;
  appId: number;
  parentId: number;
  menuName: string;
  menuIcon: string;
  icon: string | null;
  sortNum: number;
  visualId: number | null;
  visualName: string | null;
  visualKind: 'visual' | 'report' | null;
  children: AppMenuShape[];
};

/** A menu with its children (first level) or none (second level). */
export const appMenuSchema: z.ZodType<AppMenuShape> = z
  .object({
    menuId: z.number(),
    appId: z.number(),
    parentId: z.number(),
    menuName: z.string(),
    menuIcon: z.string(),
    icon: z.string().nullable(),
    sortNum: z.number(),
    visualId: z.number().nullable(),
    visualName: z.string().nullable(),
    /** The linked board's kind and type (quick / screen), for the viewer; null when it is gone. */
    visualKind: z.enum(['visual', 'report']).nullable(),
    get children() {
      return z.array(appMenuSchema);
    },
  })
  // A named schema: the API document refers to it from itself and lists it under components.
  .meta({ id: 'AppMenu' });
export type AppMenu = AppMenuShape;

export const appSchema = z.object({
  appId: z.number(),
  appName: z.string(),
  appIcon: z.string().nullable(),
  appDescription: z.string().nullable(),
  publishStatus: z.number(),
  menuShowType: z.enum(MENU_SHOW_TYPES),
  waterMarkStatus: z.number(),
  waterMarkText: z.string(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateTime: z.string(),
  editable: z.boolean(),
});
export type App = z.infer<typeof appSchema>;

export const appDetailSchema = appSchema.extend({ menus: z.array(appMenuSchema) });
export type AppDetail = z.infer<typeof appDetailSchema>;

export const appSaveSchema = z.object({
  appId: z.number().int().positive().nullish(),
  appName: requiredText(appMessages.nameRequired, APP_NAME_MAX_LENGTH),
  appIcon: z.string().trim().max(500).nullish(),
  appDescription: z.string().trim().max(500).nullish(),
  publishStatus: z.union([z.literal(0), z.literal(1)]).default(0),
  menuShowType: z.enum(MENU_SHOW_TYPES).default('1'),
  waterMarkStatus: z.union([z.literal(0), z.literal(1)]).default(0),
  waterMarkText: z.string().trim().max(50).nullish(),
});
export type AppSave = z.input<typeof appSaveSchema>;

/** Menu save: one menu. A child names its parent's menuId; it must link a board (二级菜单需关联大屏). */
export const menuSaveSchema = z.object({
  menuId: z.number().int().positive().nullish(),
  parentId: z.number().int().min(0).default(0),
  menuName: requiredText(appMessages.menuNameRequired, MENU_NAME_MAX_LENGTH),
  menuIcon,
  icon: z.string().trim().max(500).nullish(),
  visualId: z.number().int().positive().nullish(),
});
export type MenuSave = z.input<typeof menuSaveSchema>;

export type MenuTreeSave = {
  menuId?: number | null | undefined;
  menuName: string;
  menuIcon?: string | null | undefined;
  icon?: string | null | undefined;
  visualId?: number | null | undefined;
  children?: MenuTreeSave[] | undefined;
};

const childSaveSchema = z.object({
  menuId: z.number().int().positive().nullish(),
  menuName: requiredText(appMessages.menuNameRequired, MENU_NAME_MAX_LENGTH),
  menuIcon,
  icon: z.string().trim().max(500).nullish(),
  visualId: z.number().int().positive().nullish(),
});

/**
 * Menu batch save: the whole tree in display order. sortNum is assigned from 1 by position
 * and parentId to children; menus of the app left out are deleted.
 */
export const menuTreeSaveSchema = z.object({
  menus: z.array(childSaveSchema.extend({ children: z.array(childSaveSchema).max(MAX_APP_MENUS).default([]) })).max(MAX_APP_MENUS),
});

export const menuDeleteQuerySchema = z.object({
  ids: z
    .string()
    .trim()
    .regex(/^\d+(,\d+)*$/, appMessages.menuNotFound)
    .transform((s) => s.split(',').map(Number)),
});

export const appGrantableSchema = z.object({ appId: z.number(), appName: z.string(), appIcon: z.string().nullable() });
export type AppGrantable = z.infer<typeof appGrantableSchema>;

export const groupAppAuthSaveSchema = z.object({ appIdList: z.array(z.number().int().positive()).max(10000) });

/** The full-screen frame after sign-in (spec 3 §2): a board of the user's, else the configured address. */
export const appFrameSchema = z.object({ bigdataId: z.number().nullable(), defaultAddress: z.string() });
export type AppFrame = z.infer<typeof appFrameSchema>;

export const frameSettingsSchema = z.object({
  defaultAddress: z
    .string()
    .trim()
    .max(500)
    .refine((s) => s === '' || s.startsWith('/') || /^https?:\/\//i.test(s), appMessages.frameAddressInvalid)
    .default(''),
});
export type FrameSettings = z.infer<typeof frameSettingsSchema>;

/** The bigdataId of a userExtJson text (a positive integer, or a string of one); null otherwise. */
export function bigdataIdOf(userExtJson: string | null | undefined): number | null {
  if (!userExtJson) return null;
  try {
    const value: unknown = (JSON.parse(userExtJson) as Record<string, unknown> | null)?.bigdataId;
    const id = typeof value === 'string' ? Number(value.trim()) : value;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * userExtJson with bigdataId set to `id` (removed when null), other keys kept; the user form's
 * 全屏大屏 field writes through it. Text that is not a JSON object is kept as it is when there
 * is nothing to set.
 */
export function withBigdataId(userExtJson: string | null, id: number | null): string | null {
  let value: Record<string, unknown> = {};
  if (userExtJson?.trim()) {
    try {
      const parsed: unknown = JSON.parse(userExtJson);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
      else if (id === null) return userExtJson;
    } catch {
      if (id === null) return userExtJson;
    }
  }
  if (id === null && !('bigdataId' in value)) return userExtJson?.trim() ? userExtJson : null;
  const { bigdataId: _old, ...rest } = value;
  const next = id === null ? rest : { ...rest, bigdataId: id };
  return Object.keys(next).length > 0 ? JSON.stringify(next) : null;
}
