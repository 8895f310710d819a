import type { ColumnType, Generated } from 'kysely';

/** Tables of 0033_cdp, merged into the store's Database type (docs/platforms.md). Secrets are encrypted text. */

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface CdpPlatformTable {
  id: Generated<number>;
  platformName: string;
  platformType: number;
  accessType: number;
  accessUrl: string;
  icon: Generated<string>;
  apiBaseUrl: string;
  authPageUrl: string;
  componentAppId: Generated<string>;
  componentAppSecret: Generated<string>;
  messageToken: Generated<string>;
  verifyTicket: string | null;
  ticketTime: NullableStamp;
  componentToken: string | null;
  componentTokenExpires: NullableStamp;
  datasourceId: number | null;
  createTime: Generated<Date>;
}

export interface CdpInterfaceTable {
  id: Generated<number>;
  platformId: number;
  interfaceName: string;
  dataType: Generated<string>;
  kind: 'fans' | 'user_summary' | 'user_cumulate';
  tableName: string;
}

export interface CdpAppTable {
  id: Generated<number>;
  platformId: number;
  authorizerAppId: string;
  appName: Generated<string>;
  appIcon: Generated<string>;
  signature: Generated<string>;
  status: Generated<number>;
  authTime: NullableStamp;
  cancelAuthTime: NullableStamp;
  accessToken: string | null;
  accessTokenExpires: NullableStamp;
  refreshToken: string | null;
  createUserId: number | null;
  createTime: Generated<Date>;
}

export interface CdpTaskTable {
  id: Generated<number>;
  applyId: number;
  interfaceId: number;
  jobId: string;
  unit: string | null;
  value: number | null;
  lastSlot: NullableStamp;
  runningSince: NullableStamp;
  lastPullTime: NullableStamp;
  lastResult: boolean | null;
}

export interface CdpLogTable {
  id: Generated<number>;
  applyId: number;
  taskId: number;
  appName: string;
  interfaceName: string;
  amount: Generated<number>;
  result: boolean;
  failReason: Generated<string>;
  span: Generated<string>;
  trigger: Generated<string>;
  createTime: Generated<Date>;
}

export interface CdpFanTable {
  applyId: number;
  openid: string;
  nickname: Generated<string>;
  sex: Generated<number>;
  headimgurl: Generated<string>;
  subscribeTime: NullableStamp;
  localNickname: string | null;
  localSex: number | null;
  localHeadimgurl: string | null;
  pulledTime: Stamp;
}

export interface CdpStatTable {
  applyId: number;
  kind: string;
  refDate: string;
  userSource: Generated<number>;
  newUser: Generated<number>;
  cancelUser: Generated<number>;
  cumulateUser: Generated<number>;
}

declare module '../../platform/db/schema.ts' {
  interface Database {
    cdpPlatform: CdpPlatformTable;
    cdpInterface: CdpInterfaceTable;
    cdpApp: CdpAppTable;
    cdpTask: CdpTaskTable;
    cdpLog: CdpLogTable;
    cdpFan: CdpFanTable;
    cdpStat: CdpStatTable;
  }
}
