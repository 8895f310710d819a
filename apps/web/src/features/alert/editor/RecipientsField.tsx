import { Form, Select, Space, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AlertRecipients } from '@shutu/contracts';

type Department = AlertRecipients['departments'][number];
import { fetchRecipients } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

interface TreeOption {
  title: string;
  value: number;
  children: TreeOption[];
}
const treeOf = (nodes: Department[]): TreeOption[] => nodes.map((d) => ({ title: d.deptName, value: d.id, children: treeOf(d.children) }));

/** The department and every department below it. */
function subtree(nodes: Department[], id: number): Set<number> {
  for (const node of nodes) {
    if (node.id === id) {
      const ids = new Set<number>();
      const walk = (n: Department) => {
        ids.add(n.id);
        n.children.forEach(walk);
      };
      walk(node);
      return ids;
    }
    const found = subtree(node.children, id);
    if (found.size > 0) return found;
  }
  return new Set();
}

/**
 * 预警人员: the user list, and the departments. Choosing a department adds its users (sub-departments
 * included) to the list — the spec's warnUserIds, visible and editable — and keeps the department
 * itself (warnDeptIds): whoever is in it when a notice is sent is notified, a later joiner too.
 */
export function RecipientsField({ draft, onChange }: { draft: AlertDraft; onChange(d: AlertDraft): void }) {
  const recipients = useQuery({ queryKey: ['alert', 'recipients'], queryFn: fetchRecipients });
  const users = recipients.data?.users ?? [];
  const departments = recipients.data?.departments ?? [];
  const setDepartments = (deptIds: number[]) => {
    const added = deptIds.filter((id) => !draft.warnDeptIds.includes(id));
    const ids = new Set(added.flatMap((id) => [...subtree(departments, id)]));
    const members = users.filter((u) => u.deptId !== null && ids.has(u.deptId)).map((u) => u.id);
    onChange({ ...draft, warnDeptIds: deptIds, warnUserIds: [...new Set([...draft.warnUserIds, ...members])] });
  };
  return (
    <Form.Item label={alm.users} required extra={alm.deptsHint}>
      <Space.Compact style={{ width: '100%' }}>
        <TreeSelect<number[]>
          multiple
          style={{ width: 260 }}
          placeholder={alm.depts}
          treeData={treeOf(departments)}
          treeDefaultExpandAll
          value={draft.warnDeptIds}
          onChange={(ids) => setDepartments(ids ?? [])}
          data-testid="alert-depts"
        />
        <Select
          mode="multiple"
          optionFilterProp="label"
          value={draft.warnUserIds}
          options={users.map((u) => ({ label: u.realName || u.name, value: u.id }))}
          onChange={(ids: number[]) => onChange({ ...draft, warnUserIds: ids })}
          data-testid="alert-users"
        />
      </Space.Compact>
    </Form.Item>
  );
}
