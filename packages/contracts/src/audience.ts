import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { fieldIdSchema, filterGroupSchema, type ResultField } from './cube.ts';
import { orBase64Payload } from './query.ts';
import { audienceMessages } from './audience-constants.ts';

export * from './audience-constants.ts';

/**
 * Audiences (人群; spec 3 §1, §2 "Audience editor (dataset-driven)", "Import-user-group dialog",
 * §3 "Audience group", "Import group", §4 "Audience editor", "Group import", §5 "Audience save",
 * "Import group", "Filter trees", §7 "Audience (dataset-driven)", "Group import", §8, §9; issue 18;
 * docs/audiences.md). Users keyed by phone number: a dataset-driven audience combines the key sets
 * of several datasets by 交/并/差, an import audience is a phone file, a tag-driven audience
 * (docs/tags.md) is compiled from tag rules. Every kind's members live in one warehouse table.
 */

/** spec 3 §3: 0 immediate (立即, computed on save only), 1 daily, 2 weekly, 3 monthly. */
export const AUDIENCE_REQUEST_FREQS = [0, 1, 2, 3] as const;
export const AUDIENCE_KINDS = ['dataset', 'tag', 'import'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];
export const AUDIENCE_STATUSES = ['new', 'running', 'done', 'failed'] as const;
export type AudienceStatus = (typeof AUDIENCE_STATUSES)[number];
export const AUDIENCE_STATUS_LABELS: Record<AudienceStatus, string> = { new: '待计算', running: '计算中', done: '已完成', failed: '失败' };
/** spec 3 §5: output fields per dataset (intended 5; we enforce it). */
export const AUDIENCE_MAX_OUTPUTS = 5;
export const AUDIENCE_MAX_RULES = 10;
/** Rows a preview returns. */
export const AUDIENCE_PREVIEW_ROWS = 100;
/** Ours: an import file of at most this many MB (a 1M-line txt file is about 13 MB). */
export const AUDIENCE_IMPORT_MAX_MB = 100;
export const AUDIENCE_IMPORT_EXTENSIONS = ['xlsx', 'xls', 'txt'] as const;
/** spec 3 §3 "Audience group" connectType: and = 交, or = 并, del = 差 (cycle in this order, spec 3 §4). */
export const AUDIENCE_CONNECT = ['and', 'or', 'del'] as const;
export type AudienceConnect = (typeof AUDIENCE_CONNECT)[number];
export const AUDIENCE_CONNECT_LABELS: Record<AudienceConnect, string> = { and: '交', or: '并', del: '差' };
export const AUDIENCE_REFRESH_JOB = 'audience-refresh';
export const AUDIENCE_TICK_JOB = 'audience-tick';

/** One dataset card (spec 3 §3 "Dataset rule"); `audienceId` instead of `cubeId` combines another audience's members (an import). */
export const audienceRuleSchema = z.object({
  cubeId: z.number().int().positive().nullish(),
  cubeName: z.string().max(200).default(''),
  /** Another audience's members (import groups) as an operand, in place of a dataset. */
  audienceId: z.number().int().positive().nullish(),
  connectType: z.enum(AUDIENCE_CONNECT).default('and'),
  /** The one key field (the phone number); refused when missing at save. */
  phoneField: fieldIdSchema.nullish(),
  columns: z.array(fieldIdSchema).max(AUDIENCE_MAX_OUTPUTS, audienceMessages.tooManyOutputs).default([]),
  filter: filterGroupSchema.nullish(),
  having: filterGroupSchema.nullish(),
});
export type AudienceRule = z.input<typeof audienceRuleSchema>;
export type AudienceRuleParsed = z.output<typeof audienceRuleSchema>;

const name = z.string({ error: audienceMessages.nameRequired }).trim().min(1, audienceMessages.nameRequired).max(100);

export const audienceBodySchema = z.object({
  id: z.number().int().positive().nullish(),
  groupName: name,
  classifyId: z.number({ error: audienceMessages.categoryRequired }).int().positive(audienceMessages.categoryRequired),
  requestFreq: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).default(0),
  remark: z.string().max(500).default(''),
  defineRule: z.array(audienceRuleSchema).min(1, audienceMessages.rulesRequired).max(AUDIENCE_MAX_RULES),
});
export type AudienceBody = z.input<typeof audienceBodySchema>;
export const audienceSaveSchema = orBase64Payload(audienceBodySchema);
/** Preview: the cards as they stand (name and category not needed). */
export const audiencePreviewSchema = orBase64Payload(
  z.object({ defineRule: z.array(audienceRuleSchema).min(1, audienceMessages.rulesRequired).max(AUDIENCE_MAX_RULES) }),
);
export const audienceIdSchema = z.object({ id: z.coerce.number().int().positive() });
export const audienceListQuerySchema = pageQuerySchema.extend({
  groupName: z.string().trim().max(100).optional(),
  classifyId: z.coerce.number().int().positive().optional(),
  kind: z.enum(AUDIENCE_KINDS).optional(),
});
export const audienceCategoryBodySchema = z.object({
  name: z.string({ error: audienceMessages.categoryNameRequired }).trim().min(1, audienceMessages.categoryNameRequired).max(50),
});

/** A member-table column: its name in the warehouse table and its title (CSV header). */
export interface AudienceMemberColumn {
  name: string;
  title: string;
}

export interface AudienceCategory {
  id: number;
  name: string;
}

export interface AudienceListItem {
  id: number;
  groupName: string;
  classifyId: number | null;
  classifyName: string | null;
  kind: AudienceKind;
  requestFreq: number;
  remark: string;
  status: AudienceStatus;
  size: number | null;
  refreshedAt: string | null;
  durationMs: number | null;
  error: string | null;
  /** 1 in use, 2 stopped (停用: its schedule does not refresh it; spec 1 §3's isOnline, docs/audiences.md). */
  isOnline: number;
  /** 1: preselected on the comparison page when it opens without ids (tag-driven defaultShow, docs/tags.md). */
  defaultShow: number;
  createUserId: number | null;
  createUserName: string | null;
  createTime: string;
  updateTime: string;
}

export interface AudienceDetail extends AudienceListItem {
  defineRule: AudienceRuleParsed[];
  /** Tag-driven audiences: the editor's rules JSON, as saved (docs/tags.md). */
  rules: unknown;
  groupUse: number;
  userGroupStatus: number;
  startAnalyseDate: string | null;
  endAnalyseDate: string | null;
  memberColumns: AudienceMemberColumn[];
  importValid: number | null;
  importInvalid: number | null;
  importDuplicate: number | null;
}

export interface AudiencePreviewResult {
  dataList: Record<string, string | number | boolean | null>[];
  fieldDict: Pick<ResultField, 'alias' | 'title' | 'viewDataType'>[];
  total: number;
  elapsedMs: number;
}

/** One computation of an audience (audience_refresh): a scheduled slot, a save or a 刷新. */
export interface AudienceRefreshItem {
  id: number;
  slot: string;
  status: 'running' | 'done' | 'failed';
  size: number | null;
  durationMs: number | null;
  error: string | null;
  startTime: string;
  finishTime: string | null;
}
export const AUDIENCE_ONLINE_LABELS: Record<number, string> = { 1: '使用中', 2: '已停用' };

/** Answer of the phone import (spec 3 §7 "Group import"): the new audience and its line counts. */
export interface AudienceImportResult {
  id: number;
  valid: number;
  invalid: number;
  duplicate: number;
  durationMs: number;
}

export { AUDIENCE_PATHS } from './constants.ts';
