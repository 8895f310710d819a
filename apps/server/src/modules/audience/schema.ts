import type { ColumnType, Generated } from 'kysely';

/** Audience tables (0034_audience; issue 18, docs/audiences.md), merged into the store's Database type. */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Updated = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint: the driver may answer text. */
type BigCount = ColumnType<string | number | null, number | null | undefined, number | null>;

export interface AudienceCategoryTable {
  id: Generated<number>;
  name: string;
  sort: ColumnType<number, number | undefined, number>;
  createTime: Created;
}

export interface AudienceTable {
  id: Generated<number>;
  groupName: string;
  classifyId: number | null;
  kind: 'dataset' | 'tag' | 'import';
  requestFreq: number;
  remark: string;
  /** JSON: the dataset rules (kind 'dataset'). */
  defineRule: string;
  /** JSON: the tag-driven editor's rules (kind 'tag'). */
  rules: ColumnType<string, string | undefined, string>;
  groupUse: ColumnType<number, number | undefined, number>;
  defaultShow: ColumnType<number, number | undefined, number>;
  isOnline: ColumnType<number, number | undefined, number>;
  userGroupStatus: ColumnType<number, number | undefined, number>;
  startAnalyseDate: string | null;
  endAnalyseDate: string | null;
  analyseDateJson: ColumnType<string, string | undefined, string>;
  /** Source the member statement ran on (dataset audiences). */
  datasourceId: number | null;
  /** The warehouse table holding the members now (read/members.ts). */
  memberTable: string | null;
  /** JSON: [{ name, title }] of the member table's columns. */
  memberColumns: ColumnType<string, string | undefined, string>;
  status: ColumnType<'new' | 'running' | 'done' | 'failed', 'new' | 'running' | 'done' | 'failed' | undefined, 'new' | 'running' | 'done' | 'failed'>;
  size: BigCount;
  refreshedAt: Date | null;
  durationMs: number | null;
  error: string | null;
  importValid: number | null;
  importInvalid: number | null;
  importDuplicate: number | null;
  lastSlot: Date | null;
  createUserId: number | null;
  createTime: Created;
  updateTime: Updated;
}

export interface AudienceRefreshTable {
  id: Generated<number>;
  audienceId: number;
  slot: Date;
  status: ColumnType<'running' | 'done' | 'failed', 'running' | 'done' | 'failed' | undefined, 'running' | 'done' | 'failed'>;
  runId: string | null;
  size: BigCount;
  durationMs: number | null;
  error: string | null;
  startTime: Created;
  finishTime: Date | null;
}

/** A member table waiting to be dropped (0045; member-gc.ts). */
export interface AudienceMemberGcTable {
  tableName: string;
  state: 'pending' | 'retired';
  since: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../platform/db/schema.ts' {
  interface Database {
    audienceCategory: AudienceCategoryTable;
    audience: AudienceTable;
    audienceRefresh: AudienceRefreshTable;
    audienceMemberGc: AudienceMemberGcTable;
  }
}
