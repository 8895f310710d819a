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
