import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findOwnWarehouseRow } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import { readBoundSql } from '../read/index.ts';

/**
 * The form's choices (spec 3 §7 channels, areaTree, areapRoductTree), read from the demo
 * warehouse's dimension tables through the read module as the caller (a non-administrator
 * needs grants of those tables, as for any raw read).
 */

export interface OptionNode {
  value: string;
  title: string;
  children?: OptionNode[];
}

const OPTIONS_TIMEOUT_MS = 30_000;

async function rows(ctx: AppContext, caller: Caller, sql: string): Promise<Row[]> {
  const source = await findOwnWarehouseRow(ctx);
  if (!source) throw new AppError(404, '内置数仓不存在');
  return (await readBoundSql(ctx, caller, source.id, () => ({ sql, params: [] }), { max: 10_000, timeoutMs: OPTIONS_TIMEOUT_MS, field: 'options' })).rows;
}

/** Order and cancel channels with their belonging (集团/省公司/合作方). */
export async function channelOptions(ctx: AppContext, caller: Caller): Promise<{ channels: OptionNode[]; belongs: string[] }> {
  const found = await rows(ctx, caller, 'SELECT channel_id, channel_name, belongto FROM channels ORDER BY channel_id');
  return {
    channels: found.map((r) => ({ value: String(r.channel_id), title: String(r.channel_name) })),
    belongs: [...new Set(found.map((r) => String(r.belongto)))].sort(),
  };
}

/** Province → area, by name (the result row's values). */
export async function areaTree(ctx: AppContext, caller: Caller): Promise<OptionNode[]> {
  const found = await rows(
    ctx,
    caller,
    'SELECT p.province_name, a.area_name FROM provinces p LEFT JOIN areas a ON a.province_code = p.province_code ORDER BY p.sort_no, a.area_code',
  );
  const tree = new Map<string, OptionNode>();
  for (const r of found) {
    const province = String(r.province_name);
    let node = tree.get(province);
    if (!node) tree.set(province, (node = { value: province, title: province, children: [] }));
    if (r.area_name !== null) node.children!.push({ value: String(r.area_name), title: String(r.area_name) });
  }
  return [...tree.values()];
}

/** Product type level 1 → level 2 → product (spid); values carry their level (t1:, t2:, p:). */
export async function productTree(ctx: AppContext, caller: Caller): Promise<OptionNode[]> {
  const found = await rows(
    ctx,
    caller,
    'SELECT type_l1_id, type_l1_name, type_l2_id, type_l2_name, spid, shortname FROM products ORDER BY type_l1_id, type_l2_id, spid',
  );
  const level1 = new Map<string, OptionNode & { byId: Map<string, OptionNode> }>();
  for (const r of found) {
    const t1 = String(r.type_l1_id);
    let one = level1.get(t1);
    if (!one) level1.set(t1, (one = { value: `t1:${t1}`, title: String(r.type_l1_name), children: [], byId: new Map() }));
    const t2 = String(r.type_l2_id);
    let two = one.byId.get(t2);
    if (!two) {
      two = { value: `t2:${t2}`, title: String(r.type_l2_name), children: [] };
      one.byId.set(t2, two);
      one.children!.push(two);
    }
    two.children!.push({ value: `p:${String(r.spid)}`, title: String(r.shortname) });
  }
  return [...level1.values()].map(({ value, title, children }) => ({ value, title, children }));
}
