import { useMemo, useState } from 'react';
import { Alert, Checkbox, Empty, Form, Input, Modal, Radio, Select, Spin, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BOARD_TITLE_MAX_LENGTH,
  boardInfoSaveSchema,
  type BoardAuth,
  type BoardAuthSave,
  type BoardCategory,
  type BoardListItem,
  type PermGroup,
} from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { boardKeys, fetchAllPermGroups, fetchBoardAuth, saveBoardAuth, saveBoardInfo } from './api.ts';
import { categoryOptions } from './categories.tsx';
import { bm, bt } from './messages.ts';

interface InfoValues {
  title: string;
  categoryId: number;
}

/** 编辑信息: the title (required: 请填写大屏名称) and the category; the thumbnail is kept. */
export function BoardInfoModal({ board, categories, onClose }: { board: BoardListItem | null; categories: BoardCategory[]; onClose: () => void }) {
  const [form] = Form.useForm<InfoValues>();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (v: InfoValues) => saveBoardInfo(board!.id, { title: v.title.trim(), categoryId: v.categoryId, backgroundUrl: board!.backgroundUrl }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || bm.saveSuccess);
      onClose();
      await queryClient.invalidateQueries({ queryKey: boardKeys.listAll });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const options = useMemo(() => categoryOptions(categories), [categories]);
  return (
    <Modal
      open={board !== null}
      title={bt.editInfo}
      width={480}
      destroyOnHidden
      okText={bt.save}
      cancelText={bt.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<InfoValues>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={board ? { title: board.title, categoryId: board.categoryId } : undefined}
          onFinish={(v) => save.mutate(v)}
        >
          {dom}
        </Form>
      )}
    >
      <Form.Item label={bt.title} name="title" rules={zodRules(boardInfoSaveSchema, 'title')}>
        <Input placeholder={bm.titleRequired} maxLength={BOARD_TITLE_MAX_LENGTH} autoComplete="off" data-testid="board-info-title" />
      </Form.Item>
      <Form.Item label={bt.category} name="categoryId" rules={[{ required: true, message: bt.categoryRequired }]}>
        <Select options={options} placeholder={bt.categoryRequired} showSearch={{ optionFilterProp: 'label' }} data-testid="board-info-category" />
      </Form.Item>
    </Modal>
  );
}

/** Groups by permission type, in the order the types first appear. */
export function groupsByType(groups: readonly PermGroup[]): { typeId: number; typeName: string; groups: PermGroup[] }[] {
  const byType = new Map<number, { typeId: number; typeName: string; groups: PermGroup[] }>();
  for (const g of groups) {
    const entry = byType.get(g.typeId) ?? { typeId: g.typeId, typeName: g.typeName || bt.ungroupedType, groups: [] };
    entry.groups.push(g);
    byType.set(g.typeId, entry);
  }
  return [...byType.values()];
}

/** The public / groups authorisation of one resource, as loaded and saved by its own API. */
export interface PublicOrGroupsModalProps {
  open: boolean;
  title: string;
  testId: string;
  /** The cache key of the resource's authorisation. */
  authKey: readonly unknown[];
  load(): Promise<BoardAuth>;
  /** Saves; public sends an empty group list. Resolves to the server's message. */
  save(body: BoardAuthSave): Promise<{ msg: string }>;
  /** After a save: refresh what shows the resource. */
  onSaved(): Promise<void> | void;
  onClose(): void;
}

/**
 * 权限配置 (administrators): 公开, or the permission groups (all groups, by type) that may see
 * the resource (boards, slideshows). Saving as public sends an empty group list.
 */
export function PublicOrGroupsModal({ open, title, testId, authKey, load, save: saveAuth, onSaved, onClose }: PublicOrGroupsModalProps) {
  const auth = useQuery({ queryKey: authKey, queryFn: load, enabled: open, staleTime: 0 });
  const groups = useQuery({ queryKey: boardKeys.allGroups, queryFn: fetchAllPermGroups, enabled: open, staleTime: 0 });
  const [status, setStatus] = useState<0 | 1 | null>(null);
  const [picked, setPicked] = useState<Set<number> | null>(null);
  const publicStatus = status ?? (auth.data ? (auth.data.publicStatus === 1 ? 1 : 0) : 1);
  const ticks = picked ?? new Set(auth.data?.permIds ?? []);
  const sections = useMemo(() => groupsByType(groups.data ?? []), [groups.data]);
  const known = new Set((groups.data ?? []).map((g) => g.id));
  const chosen = [...ticks].filter((g) => known.has(g));

  const save = useMutation({
    mutationFn: () => saveAuth(publicStatus === 1 ? { publicStatus: 1, dataPermIdList: [] } : { publicStatus: 0, dataPermIdList: chosen }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || bm.saveSuccess);
      onClose();
      await onSaved();
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
      open={open}
      title={title}
      width={620}
      destroyOnHidden
      okText={bt.save}
      cancelText={bt.cancel}
      onCancel={onClose}
      onOk={() => save.mutate()}
      okButtonProps={{ loading: save.isPending, disabled: !auth.isSuccess }}
    >
      <Spin spinning={auth.isFetching || groups.isFetching}>
        <div className="board-perm" data-testid={testId}>
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
                <div className="board-perm-count">{bt.permGroupCount(chosen.length)}</div>
                {sections.map((s) => (
                  <div key={s.typeId} className="board-perm-type" data-testid="board-perm-type">
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
          {publicStatus === 0 && groups.isSuccess && sections.length > 0 && chosen.length === 0 && (
            <Alert className="board-perm-alert" type="warning" showIcon title={bt.permNoneChosen} />
          )}
        </div>
      </Spin>
    </Modal>
  );
}

/** 权限配置 of a board. */
export function BoardPermModal({ board, onClose }: { board: BoardListItem | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = board?.id ?? 0;
  return (
    <PublicOrGroupsModal
      open={board !== null}
      title={board ? bt.permTitle(board.title) : ''}
      testId="board-perm"
      authKey={boardKeys.auth(id)}
      load={() => fetchBoardAuth(id)}
      save={(body) => saveBoardAuth(id, body)}
      onSaved={async () => {
        await queryClient.invalidateQueries({ queryKey: boardKeys.auth(id) });
        await queryClient.invalidateQueries({ queryKey: boardKeys.listAll });
      }}
      onClose={onClose}
    />
  );
}
