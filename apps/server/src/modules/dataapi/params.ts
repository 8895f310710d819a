import {
  DATA_API_PARAM_LABELS,
  dataApiMessages,
  dataApiNoteSchema,
  formatMessage,
  type ApiParam,
  type DataApiNote,
  type DataApiParamDatatype,
  type QueryParamItem,
} from '@shutu/contracts';
import { badRequest, fieldError } from '../../platform/http/errors.ts';

/**
 * Parameters of a data API (spec 2 §3 "Parameter", §5): typed by `datatype`, defaults in the
 * spec's formats (date yyyyMMdd, month yyyyMM, time HH:mm:ss), timestamps as integer
 * milliseconds. A value is parsed and typed here, then bound by the caller (bind.ts), never
 * spliced. Missing and no default: 400 缺少必填参数【key】; wrong type: 400 naming the parameter.
 */

/** A typed value ready to bind. */
export type BoundValue = string | number;

const NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const STRING_MAX = 10_000;

function validDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** The value typed, or undefined when it is not of the type. */
export function typedValue(datatype: DataApiParamDatatype, raw: unknown): BoundValue | undefined {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined) return undefined;
  switch (datatype) {
    case 'string':
      return typeof raw === 'string' ? (raw.length <= STRING_MAX ? raw : undefined) : text;
    case 'number': {
      if (!NUMBER_TEXT.test(text)) return undefined;
      const n = Number(text);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'date': {
      const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
      return m && validDate(Number(m[1]), Number(m[2]), Number(m[3])) ? text : undefined;
    }
    case 'month': {
      const m = /^(\d{4})(\d{2})$/.exec(text);
      return m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? text : undefined;
    }
    case 'time':
      return /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(text) ? text : undefined;
    case 'timestamp': {
      if (!/^-?\d{1,16}$/.test(text)) return undefined;
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : undefined;
    }
  }
}

const isMissing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** One parameter's value: the given one, else its default, else 400 (required). */
export function parseParam(key: string, datatype: DataApiParamDatatype, given: unknown, def: unknown, required = true): BoundValue | undefined {
  const source = isMissing(given) ? def : given;
  if (isMissing(source)) {
    if (!required) return undefined;
    throw fieldError(key, formatMessage(dataApiMessages.paramRequired, { key }));
  }
  if (Array.isArray(source) || (typeof source === 'object' && source !== null)) {
    throw fieldError(key, formatMessage(dataApiMessages.paramInvalid, { key, type: DATA_API_PARAM_LABELS[datatype] }));
  }
  const value = typedValue(datatype, source);
  if (value === undefined) throw fieldError(key, formatMessage(dataApiMessages.paramInvalid, { key, type: DATA_API_PARAM_LABELS[datatype] }));
  return value;
}

/** The note of an API (showFields, params); a note that does not parse is a 400 at save. */
export function parseNote(text: string): DataApiNote {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw badRequest(dataApiMessages.noteInvalid, [{ field: 'note', message: dataApiMessages.noteInvalid }]);
  }
  const parsed = dataApiNoteSchema.safeParse(value);
  if (!parsed.success) throw badRequest(dataApiMessages.noteInvalid, [{ field: 'note', message: dataApiMessages.noteInvalid }]);
  return parsed.data;
}

/** Parameters with a key (those with an empty key are ignored, spec 2 §5); the first of a key wins. */
export function declaredParams(note: DataApiNote): ApiParam[] {
  const seen = new Set<string>();
  return note.params.filter((p) => {
    const key = p.key.trim();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every declared parameter's value (type 1 and 2): given, default, or 400. */
export function parseParams(params: ApiParam[], given: Record<string, unknown>): Map<string, BoundValue> {
  const values = new Map<string, BoundValue>();
  for (const p of params) {
    const key = p.key.trim();
    values.set(key, parseParam(key, p.datatype, given[key], p.def)!);
  }
  return values;
}

/** A type-3 column type as a parameter type: STRING(n) text, DATETIME a date-time, INT/LONG integers, FLT numbers. */
export type Type3Kind = 'string' | 'datetime' | 'integer' | 'number';
export const type3Kind = (columnType: string): Type3Kind =>
  columnType.startsWith('STRING') ? 'string' : columnType === 'DATETIME' ? 'datetime' : columnType === 'FLT' ? 'number' : 'integer';

const TYPE3_LABELS: Record<Type3Kind, string> = {
  string: '文本',
  datetime: '日期时间（yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss）',
  integer: '整数',
  number: '数字',
};

/** A type-3 value: DATETIME normalised to 'yyyy-MM-dd HH:mm:ss'. */
function type3Value(kind: Type3Kind, raw: unknown): BoundValue | undefined {
  if (kind === 'string') return typedValue('string', raw);
  if (kind === 'number') return typedValue('number', raw);
  if (kind === 'integer') {
    const n = typedValue('number', raw);
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
  }
  if (typeof raw !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]([01]\d|2[0-3]):([0-5]\d):([0-5]\d))?$/.exec(raw.trim());
  if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
  return `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
}

/** The conditions of a type-3 call: one per item given (required items must be; optional ones may be left out). */
export function parseType3Params(items: QueryParamItem[], given: Record<string, unknown>): { item: QueryParamItem; kind: Type3Kind; value: BoundValue }[] {
  const out: { item: QueryParamItem; kind: Type3Kind; value: BoundValue }[] = [];
  for (const item of items) {
    const key = item.paramName;
    const raw = given[key];
    if (isMissing(raw)) {
      if (item.optionalStatus === 1) throw fieldError(key, formatMessage(dataApiMessages.paramRequired, { key }));
      continue;
    }
    const kind = type3Kind(item.columnType);
    const value = type3Value(kind, raw);
    if (value === undefined) throw fieldError(key, formatMessage(dataApiMessages.paramInvalid, { key, type: TYPE3_LABELS[kind] }));
    out.push({ item, kind, value });
  }
  return out;
}
