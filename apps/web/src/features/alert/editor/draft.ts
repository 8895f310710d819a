import {
  ALERT_REQUEST_FREQ_DEFAULT,
  ALERT_REPEAT_DEFAULT_SECONDS,
  type AlertField,
  type AlertFilter,
  type AlertRecord,
  type AlertTimeConfig,
  type AlertWay,
} from '@shutu/contracts';

/** What the editor edits: the alert body with the shapes the pickers use. */
export interface AlertDraft {
  id?: number;
  name: string;
  requestFreq: number | null;
  enableStatus: 0 | 1;
  cubeDataId: number | null;
  warnUserIds: number[];
  /** Departments notified as they are at send time (their members now are also in warnUserIds). */
  warnDeptIds: number[];
  columnJson: AlertField[];
  filterJson: AlertFilter[];
  filterRelationJson: 'AND' | 'OR';
  filterTimeJson: AlertTimeConfig & { relativeTime: NonNullable<AlertTimeConfig['relativeTime']> };
  checkedWays: AlertWay[];
  messageDynamicContent: string;
  repeatIntervalSeconds: number;
  notifyRecovery: boolean;
  smsId: number | null;
  smsParams: Record<string, string>;
  pushEnabled: boolean;
  warningWays: { tenantId: string; warningWayEnum: string }[];
  visualDataJson: { id: number; title: string }[];
  quietStart: string | null;
  quietEnd: string | null;
}

export const emptyDraft = (): AlertDraft => ({
  name: '',
  requestFreq: ALERT_REQUEST_FREQ_DEFAULT,
  enableStatus: 1,
  cubeDataId: null,
  warnUserIds: [],
  warnDeptIds: [],
  columnJson: [],
  filterJson: [],
  filterRelationJson: 'AND',
  // spec 3 §3: relative defaults 2 BEFORE and 1 BEFORE.
  filterTimeJson: {
    timeType: 'DAY',
    calcType: 'NORMAL',
    relativeTime: { leftVal: 2, leftModifier: 'BEFORE', rightVal: 1, rightModifier: 'BEFORE' },
    timeColumn: null,
    timeTypeColumn: null,
  },
  checkedWays: ['email'],
  messageDynamicContent: '',
  repeatIntervalSeconds: ALERT_REPEAT_DEFAULT_SECONDS,
  notifyRecovery: false,
  smsId: null,
  smsParams: {},
  pushEnabled: false,
  warningWays: [],
  visualDataJson: [],
  quietStart: null,
  quietEnd: null,
});

const idsOf = (list: string) =>
  list
    .split(',')
    .map(Number)
    .filter((n) => n > 0);

export function draftOf(record: AlertRecord): AlertDraft {
  return {
    id: record.id,
    name: record.name,
    requestFreq: record.requestFreq ?? null,
    enableStatus: record.enableStatus,
    cubeDataId: record.cubeDataId ?? null,
    warnUserIds: idsOf(record.warnUserIds),
    warnDeptIds: idsOf(record.warnDeptIds ?? ''),
    columnJson: record.columnJson,
    filterJson: record.filterJson,
    filterRelationJson: record.filterRelationJson,
    filterTimeJson: record.filterTimeJson,
    checkedWays: record.checkedWays,
    messageDynamicContent: record.messageDynamicContent,
    repeatIntervalSeconds: record.repeatIntervalSeconds,
    notifyRecovery: record.notifyRecovery,
    smsId: record.smsId ?? null,
    smsParams: record.smsParams,
    pushEnabled: record.pushEnabled,
    warningWays: record.warningWays,
    visualDataJson: record.visualDataJson,
    quietStart: record.quietStart ?? null,
    quietEnd: record.quietEnd ?? null,
  };
}

/** The save body: the editor keeps users as ids, the spec sends a comma list. */
export const bodyOf = (draft: AlertDraft) => ({ ...draft, warnUserIds: draft.warnUserIds.join(','), warnDeptIds: draft.warnDeptIds.join(',') });

/** spec 3 §4: changing the dataset clears every chosen dimension, measure, filter and time column. */
export function withDataset(draft: AlertDraft, cubeDataId: number | null): AlertDraft {
  return { ...draft, cubeDataId, columnJson: [], filterJson: [], filterTimeJson: { ...draft.filterTimeJson, timeColumn: null, timeTypeColumn: null } };
}
