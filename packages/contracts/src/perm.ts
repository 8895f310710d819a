import { z } from 'zod';
import { requiredText } from './common.ts';
import { pageQuerySchema } from './envelope.ts';
import { DATA_SOURCE_TYPES } from './datasource.ts';

/**
 * Permission groups and their grants (spec 2 §3 "Permission group", "Data-source
 * authorisation"; §5 "Permission groups", "Data-source authorisation"; §7 "Permission
 * groups and other grants", "Data-source table authorisation").
 */
export const permMessages = {
  typeNameRequired: '请输入分类名',
  groupIncomplete: '请填写完整',
  typeNameTaken: '分类名称已存在',
  groupNameTaken: '权限组名称已存在',
  typeNotFound: '权限组分类不存在',
  groupNotFound: '权限组不存在',
  groupNotMine: '只能选择自己所在的权限组',
  typeInUse: '该分类下还有 {count} 个权限组，请先删除或移到其他分类',
  confirmDeleteType: '是否删除此分类',
  confirmDeleteGroup: '是否删除此权限组',
  memberMissing: '{what}【{name}】不存在，请刷新后重新选择',
  dataSourceDuplicate: '数据源不能重复使用一个权限组',
  confirmRemoveSource: '确定移除数据源【{name}】的全部数据表权限?',
  tableMissing: '数据表【{name}】在数据源中不存在，请刷新后重新选择',
  tableNotGranted: '没有数据表【{name}】的使用权限，请联系管理员授权',
  sourceNotGranted: '没有数据源【{name}】的使用权限，请联系管理员授权',
  viewNotOwned: '只能修改或删除自己创建的SQL视图',
} as const;

/** Group page sizes (spec 2 §9 "Permission group page sizes"). */
export const PERM_GROUP_PAGE_SIZES = [10, 20, 50, 100] as const;

/** A member entry of permJson: the id, and the name shown on the card (refreshed by the server on save). */
export const permMemberSchema = z.object({ id: z.number().int().positive(), name: z.string().max(100).default('') });
export type PermMember = z.infer<typeof permMemberSchema>;

const memberList = z.array(permMemberSchema).max(10000).default([]);

/** Who belongs: listed users, members of listed departments (and their sub-departments), holders of listed roles; never black-listed users. */
export const permJsonSchema = z.object({
  dpList: memberList,
  roleList: memberList,
  userList: memberList,
  blackUserList: memberList,
});
export type PermJson = z.infer<typeof permJsonSchema>;

/** The permission-group category seeded on every store (once), which the 新建权限组 dialog preselects. */
export const DEFAULT_PERM_TYPE_NAME = '默认分类';

export const permTypeSchema = z.object({ id: z.number(), typeName: z.string(), sortNum: z.number() });
export type PermType = z.infer<typeof permTypeSchema>;

export const permTypeSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  typeName: requiredText(permMessages.typeNameRequired, 50),
  sortNum: z.number().int().min(0).max(100000).nullish(),
});
export type PermTypeSave = z.input<typeof permTypeSaveSchema>;

export const permGroupSchema = z.object({
  id: z.number(),
  permName: z.string(),
  typeId: z.number(),
  typeName: z.string(),
  permJson: permJsonSchema,
  createTime: z.string(),
  updateTime: z.string(),
});
export type PermGroup = z.infer<typeof permGroupSchema>;

export const permGroupSaveSchema = z.object({
  id: z.number().int().positive().nullish(),
  permName: requiredText(permMessages.groupIncomplete, 50),
  typeId: z.number({ error: permMessages.groupIncomplete }).int().positive(permMessages.groupIncomplete),
  permJson: permJsonSchema.default({ dpList: [], roleList: [], userList: [], blackUserList: [] }),
});
export type PermGroupSave = z.input<typeof permGroupSaveSchema>;

/** groupPage: current, size, permName (contains), typeId (absent or -1: every type). */
export const permGroupPageQuerySchema = pageQuerySchema.extend({
  permName: z.string().trim().max(50).optional(),
  typeId: z.coerce.number().int().optional(),
});
export type PermGroupPageQuery = z.input<typeof permGroupPageQuerySchema>;

/** A group the caller belongs to (my auth groups): what the dataset first-save dialog lists. */
export const myPermGroupSchema = z.object({ id: z.number(), permName: z.string(), typeId: z.number(), typeName: z.string() });
export type MyPermGroup = z.infer<typeof myPermGroupSchema>;

/** A table as the data source names it: schema (or database) and name. */
export const tableRefSchema = z.object({ schema: z.string().min(1).max(255), name: z.string().min(1).max(255) });
export type TableRef = z.infer<typeof tableRefSchema>;

/**
 * One data source granted to a group (dsAuthList row). The spec's `tableNames` list holds
 * names; ours holds schema and name so that equally named tables of two schemas differ.
 */
export const dataSourceGrantSchema = z.object({
  dataPermId: z.number(),
  datasourceId: z.number(),
  dsName: z.string(),
  dsTypeSyl: z.string(),
  tableNames: z.array(tableRefSchema),
  /** The group's members may upload file tables into this source (issue 28; the server always answers it). */
  writable: z.boolean().optional(),
});
export type DataSourceGrant = z.infer<typeof dataSourceGrantSchema>;

/**
 * dsAuthSave: replaces the group's tables of one source; an empty list removes the source (and
 * its write permission). `writable` (absent: unchanged) allows uploading file tables there.
 */
export const dataSourceGrantSaveSchema = z.object({ tableNames: z.array(tableRefSchema).max(100000), writable: z.boolean().optional() });
export type DataSourceGrantSave = z.input<typeof dataSourceGrantSaveSchema>;

/** An upload into a source the caller's groups may not write. */
export const sourceNotWritableMessage = '没有数据源【{name}】的上传权限，请联系管理员授权';

export const permGrantParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  datasourceId: z.coerce.number().int().positive(),
});

/**
 * Resources a group can be granted (the tabs of /system/authGroupSetting, in order). Only
 * `datasource` exists yet; each later resource plugs its tab and its grant kind in.
 */
export const GRANT_KINDS = ['datasource', 'cube', 'ppt', 'visual', 'report', 'app', 'link'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];

export const GRANT_KIND_LABELS: Record<GrantKind, string> = {
  datasource: '数据源',
  cube: '数据集',
  ppt: '幻灯片',
  visual: '可视化大屏',
  report: '自助报表',
  app: '应用',
  link: '第三方链接',
};

/** A data source a non-administrator may build on: granted tables, no connection details. */
export const usableDataSourceSchema = z.object({
  id: z.number(),
  dsDb: z.string(),
  type: z.enum(DATA_SOURCE_TYPES),
  dsTypeSyl: z.string(),
  remark: z.string().nullable(),
  /** The caller may upload file tables into it (administrators; the grant's write permission, issue 28; always answered). */
  writable: z.boolean().optional(),
});
export type UsableDataSource = z.infer<typeof usableDataSourceSchema>;
