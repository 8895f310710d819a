import { API } from '@shutu/contracts';
import { call } from './fixtures.ts';
import { multipart } from './multipart.ts';
import {
  direct,
  refusal,
  rowsOf,
  shownOf,
  unordered,
  where,
  type MatrixWorld,
  type Seen,
  type Shown,
  type Subject,
  type View,
} from './read-matrix-fixtures.ts';

/**
 * The audience and tag read paths of the matrix (issue 18, read-matrix.test.ts): a dataset
 * audience's preview and its computed members (export), the tag detail's bars and the profile
 * comparison, each read by the subject itself. An audience is computed as its owner, so a
 * reader's audience holds what that reader's dataset paths show; tag and profile reads are raw
 * reads of warehouse tables (a table grant is the whole table).
 */

const P = API.audience;
/** Orders 1…80 keep the preview under its 100 rows, so the matrix compares every member. */
const MAX_ORDER = 80;

const rule = (m: MatrixWorld) => ({
  cubeId: m.cubeId,
  cubeName: '订单明细',
  connectType: 'and',
  phoneField: m.f['手机号'],
  columns: [m.f['省份']],
  filter: { relation: 'AND', conditions: [{ cubeColumnId: m.f['订单编号'], connectType: 'and', conditions: [{ function: 'le', values: [MAX_ORDER] }] }] },
});

/** A member's phone with the province of its orders, as the audience's output field (MAX per phone). */
export async function audienceMembersSql(m: MatrixWorld, view: View): Promise<Shown> {
  const filter = where(view) ? `${where(view)} AND order_id <= ${MAX_ORDER}` : `WHERE order_id <= ${MAX_ORDER}`;
  return unordered(await direct(m, `SELECT phone, MAX(province) FROM orders ${filter} GROUP BY phone`, ['手机号', '省份']));
}

/** 人群预览 as the subject: every member (fewer than the preview's 100) and the size. */
export async function audiencePreviewRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const res = await call(m.w.server, 'POST', P.preview, { headers: s.headers, payload: { defineRule: [rule(m)] } });
  const seen = shownOf(res);
  if (!('rows' in seen)) return seen;
  if (res.body.data.total !== seen.rows.length) throw new Error(`preview total ${res.body.data.total} for ${seen.rows.length} rows`);
  return unordered(seen);
}

const categories = new WeakMap<MatrixWorld, Promise<number>>();
function categoryOf(m: MatrixWorld): Promise<number> {
  let id = categories.get(m);
  if (!id) {
    id = call(m.w.server, 'POST', P.categories, { headers: m.subjects['管理员'].headers, payload: { name: '权限矩阵' } }).then((r) => r.body.data.id as number);
    categories.set(m, id);
  }
  return id;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The subject saves the audience, the job computes it as its owner, the subject exports the members (CSV with BOM). */
export async function audienceExportRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const classifyId = await categoryOf(m);
  const saved = await call(m.w.server, 'POST', P.save, {
    headers: s.headers,
    payload: { groupName: `矩阵${Date.now()}${Math.random()}`, classifyId, requestFreq: 0, defineRule: [rule(m)] },
  });
  if (saved.status !== 200) return refusal(saved);
  const id = saved.body.data as number;
  const detail = await until(
    () => call(m.w.server, 'GET', P.detail, { headers: s.headers, query: { id } }),
    (r) => r.status !== 200 || r.body.data.status === 'done' || r.body.data.status === 'failed',
  );
  if (detail.status !== 200 || detail.body.data.status !== 'done') throw new Error(`audience ${id}: ${detail.raw.body}`);
  const file = await m.w.server.app.inject({ method: 'GET', url: P.export, query: { id: String(id) }, headers: s.headers });
  if (file.statusCode !== 200) return { status: file.statusCode, msg: JSON.parse(file.body).msg };
  const text = file.rawPayload.toString('utf8');
  if (!text.startsWith('\ufeff')) throw new Error('CSV without a UTF-8 BOM');
  const [header, ...lines] = text.slice(1).split(/\r?\n/).filter(Boolean);
  return unordered({ titles: header!.split(','), rows: lines.map((l) => l.split(',')) });
}

/** The month the tag detail opens on: the newest with counts. */
const newestMonth = async (m: MatrixWorld) => String((await m.w.direct('SELECT MAX(month) AS m FROM tag_month_counts'))[0]!.m);

/** 标签详情的占比柱状图 as the subject: users per tag of 年龄段 in the newest month. */
export async function tagRatioRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const res = await call(m.w.server, 'GET', '/api/tag/ratio', { headers: s.headers, query: { tagId: 1003, dataDate: await newestMonth(m) } });
  if (res.status !== 200) return refusal(res);
  return { titles: ['tagname', 'num'], rows: rowsOf(res.body.data, ['tagname', 'num']) };
}

export async function tagRatioSql(m: MatrixWorld, view: View): Promise<Shown> {
  if (view !== 'all') throw new Error('tag reads are raw reads: a table grant is the whole table');
  const month = await newestMonth(m);
  return direct(m, `SELECT tag_name, user_count FROM tag_month_counts WHERE month = '${month}' AND level2_name = '年龄段' ORDER BY tag_id`, ['tagname', 'num']);
}

/** Six phones of the warehouse, three of 广东: the imported audience the comparison reads. */
const samplePhones = async (m: MatrixWorld) =>
  (
    await m.w.direct(
      "(SELECT phone FROM users WHERE province = '广东' ORDER BY phone LIMIT 3) UNION ALL (SELECT phone FROM users WHERE province <> '广东' ORDER BY phone LIMIT 3)",
    )
  ).map((r) => String(r.phone));

/** 用户画像对比 as the subject, over a phone list the subject imported itself: its province distribution. */
export async function profileCompareRead(m: MatrixWorld, s: Subject): Promise<Seen> {
  const form = multipart({ name: `矩阵导入${Date.now()}` }, { name: 'phones.txt', content: (await samplePhones(m)).join('\n') });
  const imported = await m.w.server.app.inject({ method: 'POST', url: P.import, headers: { ...s.headers, ...form.headers }, payload: form.payload });
  if (imported.statusCode !== 200) return { status: imported.statusCode, msg: JSON.parse(imported.body).msg };
  const id = JSON.parse(imported.body).data.id as number;
  const res = await call(m.w.server, 'GET', '/api/tag/profile/compare', { headers: s.headers, query: { id: String(id) } });
  if (res.status !== 200) return refusal(res);
  return unordered({ titles: ['省份', '人数'], rows: rowsOf(res.body.data.groups[0].provinces, ['name', 'num']) });
}

export async function profileProvincesSql(m: MatrixWorld, view: View): Promise<Shown> {
  if (view !== 'all') throw new Error('profile reads are raw reads: a table grant is the whole table');
  const phones = await samplePhones(m);
  const sql = `SELECT province, COUNT(*) FROM users WHERE phone IN (${phones.map((p) => `'${p}'`).join(', ')}) GROUP BY province`;
  return unordered(await direct(m, sql, ['省份', '人数']));
}
