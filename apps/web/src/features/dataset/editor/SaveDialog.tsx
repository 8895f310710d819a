import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Empty, Modal, Radio, Space, Spin } from 'antd';
import { useUserInfo } from '../../../shared/session.ts';
import { editorKeys, fetchMyGroups } from './api.ts';
import { em } from './messages.ts';

export const SAVE_DIALOG_WIDTH = 600;

interface Props {
  open: boolean;
  saving: boolean;
  onOk: (perm: { publicStatus: 0 | 1; dataPermIdList: number[] }) => void;
  onCancel: () => void;
}

/**
 * First save: the dataset is public, or bound to the chosen permission groups (all checked when
 * chosen). The default is what the user can actually pick: a member of groups gets their groups;
 * an administrator, or a user in no group, gets 公开 (the server accepts publicStatus 1 from anyone,
 * and groups only from their members — administrators any).
 */
export function SaveDialog({ open, saving, onOk, onCancel }: Props) {
  return (
    <Modal title={em.permTitle} width={SAVE_DIALOG_WIDTH} open={open} onCancel={onCancel} footer={null} destroyOnHidden>
      {open && <PermForm saving={saving} onOk={onOk} onCancel={onCancel} />}
    </Modal>
  );
}

function PermForm({ saving, onOk, onCancel }: Omit<Props, 'open'>) {
  const groups = useQuery({ queryKey: editorKeys.myGroups, queryFn: fetchMyGroups });
  const isAdministrator = useUserInfo().data?.isAdministrator === true;
  const [chosen, setMode] = useState<'public' | 'groups' | null>(null);
  const [unchecked, setUnchecked] = useState<Set<number>>(new Set());
  const list = groups.data ?? [];
  const mode = chosen ?? (isAdministrator || (!groups.isLoading && list.length === 0) ? 'public' : 'groups');
  const checked = list.filter((g) => !unchecked.has(g.id)).map((g) => g.id);
  return (
    <div data-testid="ds-save-dialog">
      <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'public' | 'groups')} data-testid="ds-perm-mode">
        <Radio value="public">{em.permPublic}</Radio>
        <Radio value="groups">{em.permGroups}</Radio>
      </Radio.Group>
      {mode === 'groups' && (
        <div className="ds-perm-groups">
          {groups.isLoading ? (
            <Spin />
          ) : list.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.permNoGroups} />
          ) : (
            <Checkbox.Group
              value={checked}
              options={list.map((g) => ({ value: g.id, label: g.permName }))}
              onChange={(values) => setUnchecked(new Set(list.map((g) => g.id).filter((id) => !values.includes(id))))}
            />
          )}
        </div>
      )}
      <Space className="ds-dialog-actions">
        <Button onClick={onCancel}>{em.cancel}</Button>
        <Button
          type="primary"
          loading={saving}
          disabled={mode === 'groups' && checked.length === 0}
          data-testid="ds-perm-ok"
          onClick={() => onOk(mode === 'public' ? { publicStatus: 1, dataPermIdList: [] } : { publicStatus: 0, dataPermIdList: checked })}
        >
          {em.confirm}
        </Button>
      </Space>
    </div>
  );
}
