import { useMemo, useState } from 'react';
import { Checkbox, Empty, Modal, Radio, Spin, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ppt } from '@shutu/contracts';
import { notifySuccess } from '../../app/notify.ts';
import { fetchAllPermGroups } from '../board/api.ts';
import { groupsByType } from '../board/dialogs.tsx';
import { bt } from '../board/messages.ts';
import { fetchPptAuth, pptKeys, savePptAuth } from './api.ts';
import { pm, pt } from './messages.ts';

/** 权限 (administrators): public, or restricted to the ticked permission groups; as a board's. */
export function PptPermModal({ ppt, onClose }: { ppt: Ppt | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = ppt?.id ?? 0;
  const auth = useQuery({ queryKey: pptKeys.auth(id), queryFn: () => fetchPptAuth(id), enabled: ppt !== null, staleTime: 0 });
  const groups = useQuery({ queryKey: ['ppt', 'perm-groups'], queryFn: fetchAllPermGroups, enabled: ppt !== null, staleTime: 0 });
  const [status, setStatus] = useState<0 | 1 | null>(null);
  const [picked, setPicked] = useState<Set<number> | null>(null);
  const publicStatus = status ?? (auth.data ? (auth.data.publicStatus === 1 ? 1 : 0) : 1);
  const ticks = picked ?? new Set(auth.data?.permIds ?? []);
  const sections = useMemo(() => groupsByType(groups.data ?? []), [groups.data]);
  const save = useMutation({
    mutationFn: () => savePptAuth(id, publicStatus === 1 ? { publicStatus: 1, dataPermIdList: [] } : { publicStatus: 0, dataPermIdList: [...ticks] }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: pptKeys.all });
    },
  });
  const toggle = (groupId: number, on: boolean) => {
    const next = new Set(ticks);
    if (on) next.add(groupId);
    else next.delete(groupId);
    setPicked(next);
  };
  return (
    <Modal
      open={ppt !== null}
      title={ppt ? pt.permTitle(ppt.ppName) : ''}
      width={620}
      destroyOnHidden
      okText={pt.save}
      cancelText={pt.cancel}
      onCancel={onClose}
      onOk={() => save.mutate()}
      okButtonProps={{ loading: save.isPending, disabled: !auth.isSuccess }}
    >
      <Spin spinning={auth.isFetching || groups.isFetching}>
        <div className="board-perm" data-testid="ppt-perm">
          <Radio.Group
            value={publicStatus}
            onChange={(e) => setStatus(e.target.value as 0 | 1)}
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 1, label: bt.permPublic },
              { value: 0, label: bt.permGroups },
            ]}
          />
          <Typography.Paragraph type="secondary" className="board-perm-hint">
            {publicStatus === 1 ? bt.permPublicHint : bt.permGroupsHint}
          </Typography.Paragraph>
          {publicStatus === 0 &&
            (groups.isSuccess && sections.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={bt.permNoGroups} />
            ) : (
              <div className="board-perm-groups">
                {sections.map((s) => (
                  <div key={s.typeId} className="board-perm-type">
                    <div className="board-perm-type-name">{s.typeName}</div>
                    <div className="board-perm-type-groups">
                      {s.groups.map((g) => (
                        <Checkbox key={g.id} checked={ticks.has(g.id)} onChange={(e) => toggle(g.id, e.target.checked)}>
                          {g.permName}
                        </Checkbox>
                      ))}
                    </div>
                  </div>
                ))}
              </div>
            ))}
        </div>
      </Spin>
    </Modal>
  );
}
