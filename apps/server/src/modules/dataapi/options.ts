import { DATA_API_OPTIONS_MAX, dataApiMessages, type DataApi, type DataApiOption } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { prepareCall } from './execute.ts';
import { parseNote } from './params.ts';
import { findApi } from './repo.ts';
import { cacheSeconds } from './settings.ts';

/**
 * A published API's answer as a filter pick-list (enumSource 2 in the dataset and board filter
 * editors; docs/dataapi.md "Pick-lists"). The API runs as the signed-in user — their table
 * grants, as for a user token on the published runtime — with its defaults; the value is the
 * first shown field (else the row's first column), the label the second (else the value).
 * Values are distinct in the answer's order, `q` keeps those whose value or label contains it
 * (ignoring case), and at most DATA_API_OPTIONS_MAX are answered.
 */

type Scalar = string | number;

function scalarOf(value: unknown): Scalar | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** The columns giving value and label: showFields first, else the row's own first two. */
function columnsOf(api: DataApi, first: Record<string, unknown>): [string, string] {
  const own = Object.keys(first);
  const shown = parseNote(api.note)
    .showFields.map((f) => f.columnName)
    .filter((name) => name in first);
  const [value, label] = shown.length > 0 ? shown : own;
  return [value!, label ?? value!];
}

/** Rows of any answer: a list of objects, or a list of scalars (each its own label). */
export function optionsOf(api: DataApi, data: unknown, q: string | undefined): DataApiOption[] {
  if (!Array.isArray(data)) throw badRequest(dataApiMessages.optionsNotList);
  const rows = data.filter((row) => row !== null && row !== undefined);
  if (rows.length === 0) return [];
  const objects = typeof rows[0] === 'object' && !Array.isArray(rows[0]);
  const [valueColumn, labelColumn] = objects ? columnsOf(api, rows[0] as Record<string, unknown>) : ['', ''];
  const needle = q?.trim().toLowerCase() ?? '';
  const seen = new Set<Scalar>();
  const options: DataApiOption[] = [];
  for (const row of rows) {
    const record = objects && typeof row === 'object' ? (row as Record<string, unknown>) : null;
    const value = scalarOf(record ? record[valueColumn] : row);
    if (value === null || seen.has(value)) continue;
    seen.add(value);
    const label = String(scalarOf(record ? record[labelColumn] : row) ?? value);
    if (needle !== '' && !String(value).toLowerCase().includes(needle) && !label.toLowerCase().includes(needle)) continue;
    options.push({ value, label });
    if (options.length >= DATA_API_OPTIONS_MAX) break;
  }
  return options;
}

/** GET /api/dataapi/apis/:id/options: 404 unknown, 403 offline, 503 faulty, the read's own 403 for a table the user may not read. */
export async function apiOptions(ctx: AppContext, caller: Caller, id: number, q: string | undefined): Promise<{ options: DataApiOption[] }> {
  const api = await findApi(ctx.db, id);
  if (!api) throw notFound(dataApiMessages.apiNotFound);
  if (api.apiStatus === 0) throw forbidden(dataApiMessages.apiOffline);
  if (api.apiStatus === 2) throw new AppError(503, dataApiMessages.apiFaulty);
  const result = await prepareCall(ctx, api, caller, {}, { cacheTtlMs: (await cacheSeconds(ctx)) * 1000 })();
  return { options: optionsOf(api, result.data, q) };
}
