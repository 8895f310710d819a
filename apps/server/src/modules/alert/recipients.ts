import type { AlertRecipients } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';

/**
 * Whom an alert may notify (the editor's 预警人员): every active user — name and department only,
 * no address or phone — and the department tree. The organisation screens are for
 * administrators; a member building an alert still has to pick recipients.
 */
export async function alertRecipients(ctx: AppContext): Promise<AlertRecipients> {
  const [users, depts] = await Promise.all([
    ctx.db.selectFrom('sysUser').select(['id', 'name', 'realName', 'deptId']).where('status', '=', 1).orderBy('id').execute(),
    ctx.db.selectFrom('sysDept').select(['id', 'parentId', 'deptName', 'sort']).orderBy('sort').orderBy('id').execute(),
  ]);
  type Node = AlertRecipients['departments'][number];
  const nodes = new Map<number, Node>(depts.map((d) => [d.id, { ...d, children: [] }]));
  const roots: Node[] = [];
  for (const d of depts) {
    const node = nodes.get(d.id)!;
    const parent = nodes.get(d.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return { users, departments: roots };
}

const idList = (list: string | number[]) =>
  (typeof list === 'string' ? list.split(',') : list).map((v) => Number(String(v).trim())).filter((n) => Number.isSafeInteger(n) && n > 0);

/** The departments of the comma list that exist (a deleted department is dropped, not an error). */
export async function existingDepartments(ctx: AppContext, list: string | number[]): Promise<number[]> {
  const ids = idList(list);
  if (ids.length === 0) return [];
  const rows = await ctx.db.selectFrom('sysDept').select('id').where('id', 'in', ids).execute();
  const found = new Set(rows.map((r) => r.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}

/**
 * The active members of the departments and of every department below them, read when a notice is
 * sent: someone who joined after the alert was saved is notified, someone who left is not (unless
 * also chosen by name).
 */
export async function departmentMembers(ctx: AppContext, list: string | number[]): Promise<number[]> {
  const roots = idList(list);
  if (roots.length === 0) return [];
  const depts = await ctx.db.selectFrom('sysDept').select(['id', 'parentId']).execute();
  const chosen = new Set(roots);
  // Walk down the tree (depth bounded by the number of departments, so a cycle cannot loop).
  for (let grew = true, rounds = 0; grew && rounds < depts.length; rounds++) {
    grew = false;
    for (const d of depts)
      if (!chosen.has(d.id) && chosen.has(d.parentId)) {
        chosen.add(d.id);
        grew = true;
      }
  }
  const users = await ctx.db
    .selectFrom('sysUser')
    .select('id')
    .where('deptId', 'in', [...chosen])
    .where('status', '=', 1)
    .orderBy('id')
    .execute();
  return users.map((u) => u.id);
}
