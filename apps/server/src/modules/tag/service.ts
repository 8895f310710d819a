import { tagMessages, type Tag, type TagCountRow, type TagRatioRow, type TagTreeNode, type TagTreeType } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { num, readWarehouse, text } from './warehouse.ts';

/**
 * The tag library and the tag detail page (spec 1 §2.3, §3 "Tag", §4, §7 "Tags"): the warehouse's
 * tags and tag_month_counts (docs/warehouse.md), read as the caller.
 */

const TAG_COLUMNS = 'tag_id, tag_name, level1_name, level2_name, tag_group, user_type, tag_desc, tag_type, develop_type, exclusion, is_online';
const toTag = (r: Row): Tag => ({
  tagId: num(r.tag_id),
  tagName: text(r.tag_name),
  level1Name: text(r.level1_name),
  level2Name: text(r.level2_name),
  tagGroup: text(r.tag_group),
  userType: text(r.user_type),
  tagDesc: text(r.tag_desc),
  tagType: num(r.tag_type),
  developType: num(r.develop_type),
  exclusion: num(r.exclusion),
  isOnline: num(r.is_online),
});

/** Every tag, optionally those whose name, level names or description contain `keyword`. */
export async function listTags(ctx: AppContext, caller: Caller, keyword?: string): Promise<Tag[]> {
  const rows = await readWarehouse(ctx, caller, (p) => {
    if (!keyword) return `SELECT ${TAG_COLUMNS} FROM tags ORDER BY tag_id`;
    const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const cond = ['tag_name', 'level1_name', 'level2_name', 'tag_desc'].map((c) => `${c} LIKE ${p(like)} ESCAPE '\\'`).join(' OR ');
    return `SELECT ${TAG_COLUMNS} FROM tags WHERE ${cond} ORDER BY tag_id`;
  });
  return rows.map(toTag);
}

export async function findTag(ctx: AppContext, caller: Caller, tagId: number): Promise<Tag> {
  const [row] = await readWarehouse(ctx, caller, (p) => `SELECT ${TAG_COLUMNS} FROM tags WHERE tag_id = ${p(tagId)}`);
  if (!row) throw notFound(tagMessages.tagNotFound);
  return toTag(row);
}

/** The months that have counts, newest first (the detail page opens on the newest). */
export async function tagMonths(ctx: AppContext, caller: Caller): Promise<string[]> {
  const rows = await readWarehouse(ctx, caller, () => 'SELECT DISTINCT month FROM tag_month_counts ORDER BY month DESC');
  return rows.map((r) => text(r.month));
}

/**
 * Ratio rows: users per tag of the tag's level-2 group in one month. An empty answer means the
 * month has no data; the page then steps back one month (spec 1 §4).
 */
export async function tagRatio(ctx: AppContext, caller: Caller, tagId: number, month: string): Promise<TagRatioRow[]> {
  const tag = await findTag(ctx, caller, tagId);
  const rows = await readWarehouse(
    ctx,
    caller,
    (p) =>
      `SELECT tag_name, tag_id, user_count FROM tag_month_counts WHERE month = ${p(month)} AND level1_name = ${p(tag.level1Name)} AND level2_name = ${p(tag.level2Name)} ORDER BY tag_id`,
  );
  // A month of the generated grid with nobody in the group counts as no data too.
  if (rows.every((r) => num(r.user_count) === 0)) return [];
  return rows.map((r) => ({ tagname: text(r.tag_name), tagid: num(r.tag_id), num: num(r.user_count) }));
}

/** Count rows: users holding the tag per month of [start, end]. */
export async function tagCount(ctx: AppContext, caller: Caller, tagId: number, start: string, end: string): Promise<TagCountRow[]> {
  await findTag(ctx, caller, tagId);
  const rows = await readWarehouse(
    ctx,
    caller,
    (p) => `SELECT month, user_count FROM tag_month_counts WHERE tag_id = ${p(tagId)} AND month BETWEEN ${p(start)} AND ${p(end)} ORDER BY month`,
  );
  return rows.map((r) => ({ datadate: text(r.month), num: num(r.user_count) }));
}

const node = (value: string, title: string, children?: TagTreeNode[]): TagTreeNode => (children ? { value, title, children } : { value, title });

/** Groups rows into a two- or three-level tree by the given keys. */
function group(rows: Row[], levels: readonly { value: (r: Row) => string; title: (r: Row) => string }[]): TagTreeNode[] {
  const root: TagTreeNode[] = [];
  const index = new Map<string, TagTreeNode>();
  for (const r of rows) {
    let siblings = root;
    let path = '';
    levels.forEach((level, depth) => {
      const value = level.value(r);
      path += `\u0000${value}`;
      let found = index.get(path);
      if (!found) {
        found = node(value, level.title(r), depth < levels.length - 1 ? [] : undefined);
        index.set(path, found);
        siblings.push(found);
      }
      siblings = found.children ?? [];
    });
  }
  return root;
}

/**
 * The editor's trees (spec 3 §7): linkup (level 1 → level 2 → tag, value `tag id`), linkup_area
 * (province → city, values `p:` / `a:` + name), linkup_channel (belonging → channel, value the
 * channel id).
 */
export async function tagTree(ctx: AppContext, caller: Caller, type: TagTreeType): Promise<TagTreeNode[]> {
  if (type === 'linkup') {
    const rows = await readWarehouse(ctx, caller, () => 'SELECT tag_id, tag_name, level1_name, level2_name, tag_group FROM tags ORDER BY tag_id');
    return group(rows, [
      { value: (r) => `l1:${text(r.level1_name)}`, title: (r) => text(r.level1_name) },
      { value: (r) => `l2:${text(r.level2_name)}`, title: (r) => text(r.level2_name) },
      { value: (r) => String(num(r.tag_id)), title: (r) => text(r.tag_name) },
    ]);
  }
  if (type === 'linkup_area') {
    const rows = await readWarehouse(
      ctx,
      caller,
      () => 'SELECT p.province_name, a.area_name FROM provinces p JOIN areas a ON a.province_code = p.province_code ORDER BY p.sort_no, a.area_code',
    );
    return group(rows, [
      { value: (r) => `p:${text(r.province_name)}`, title: (r) => text(r.province_name) },
      { value: (r) => `a:${text(r.area_name)}`, title: (r) => text(r.area_name) },
    ]);
  }
  const rows = await readWarehouse(ctx, caller, () => 'SELECT channel_id, channel_name, belongto FROM channels ORDER BY belongto, channel_id');
  return group(rows, [
    { value: (r) => `b:${text(r.belongto)}`, title: (r) => text(r.belongto) },
    { value: (r) => text(r.channel_id), title: (r) => text(r.channel_name) },
  ]);
}

/** The product tree (spec 3 §2): its four fixed level-1 categories → level-2 types → products (spid). */
export async function productTree(ctx: AppContext, caller: Caller): Promise<TagTreeNode[]> {
  const rows = await readWarehouse(
    ctx,
    caller,
    () => 'SELECT type_l1_id, type_l1_name, type_l2_id, type_l2_name, spid, shortname FROM products ORDER BY type_l1_id, type_l2_id, spid',
  );
  return group(rows, [
    { value: (r) => `t1:${text(r.type_l1_name)}`, title: (r) => text(r.type_l1_name) },
    { value: (r) => `t2:${text(r.type_l2_name)}`, title: (r) => text(r.type_l2_name) },
    { value: (r) => text(r.spid), title: (r) => text(r.shortname) },
  ]);
}
