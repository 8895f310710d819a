import { useMemo, useState } from 'react';
import { App, Button, Empty, Modal, Spin, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { defaultPermFilterName, type CubePermFilter, type CubePermFilterSave } from '@shutu/contracts';
import { notifySuccess, notifyWarning } from '../../../shared/notify.ts';
import { deletePermFilter, fetchPermFilters, permFilterKeys, savePermFilter } from './api.ts';
import { fm } from './messages.ts';
import { PermFilterCard, type PermFilterDraft } from './PermFilterCard.tsx';
import { newUniqId, normaliseTree, validateTree } from './tree-ops.ts';
import type { FilterField } from './types.ts';
import './filter.css';

export interface PermFilterDialogProps {
  open: boolean;
  /** The saved dataset's id. */
  cubeDataId: number;
  /** The saved dataset's fields (numeric ids). */
  fields: FilterField[];
  /** Administrators may add and delete filters (spec 2 §6). */
  isAdmin: boolean;
  onClose: () => void;
}

const ids = (text: string) =>
  text
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0);

function toDraft(f: CubePermFilter): PermFilterDraft {
  return {
    key: `saved-${f.id}`,
    id: f.id,
    cubePermName: f.cubePermName,
    group: { id: f.dataPermId, name: f.permName },
    filterJson: f.filterJson,
    excludeColumnIds: ids(f.excludeColumnIds),
  };
}

/** The first problem of a draft (name, group, conditions), or null. */
export function draftProblem(draft: PermFilterDraft, fields: readonly FilterField[]): string | null {
  if (draft.cubePermName.trim() === '') return fm.permFilterNameRequired;
  if (!draft.group) return fm.permFilterGroupRequired;
  return validateTree(draft.filterJson, fields);
}

/**
 * The dataset permission-filter dialog (spec 2 §2, 800px): the dataset's filters, one per
 * permission group, each with its name, group, row conditions and excluded columns. New
 * filters (添加, administrators) are saved with 添加, saved ones with 更新; administrators
 * delete saved filters after 确定删除?.
 */
export function PermFilterDialog({ open, cubeDataId, fields, isAdmin, onClose }: PermFilterDialogProps) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: permFilterKeys.list(cubeDataId),
    queryFn: () => fetchPermFilters(cubeDataId),
    enabled: open && cubeDataId > 0,
    staleTime: 0,
  });
  /** Unsaved edits of saved filters, by key; filters added and not saved yet. */
  const [edits, setEdits] = useState<Record<string, Partial<PermFilterDraft>>>({});
  const [added, setAdded] = useState<PermFilterDraft[]>([]);
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});

  const drafts = useMemo(() => [...(list.data ?? []).map((f) => ({ ...toDraft(f), ...edits[`saved-${f.id}`] })), ...added], [list.data, edits, added]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: permFilterKeys.list(cubeDataId) });
  const forget = (key: string) => {
    setEdits(({ [key]: _gone, ...rest }) => rest);
    setAdded((a) => a.filter((d) => d.key !== key));
    setExpanded(({ [key]: _gone, ...rest }) => rest);
  };

  const save = useMutation({
    mutationFn: (draft: PermFilterDraft) =>
      savePermFilter({
        ...(draft.id !== undefined ? { id: draft.id } : {}),
        cubeDataId,
        dataPermId: draft.group!.id,
        cubePermName: draft.cubePermName.trim(),
        // enumSource is read back as a number; the editor never changes it, so it is one of 1, 2, 3
        filterJson: normaliseTree(draft.filterJson, fields) as CubePermFilterSave['filterJson'],
        excludeColumnIds: draft.excludeColumnIds.join(','),
      }),
    onSuccess: async (res, draft) => {
      notifySuccess(res.msg || fm.saved);
      await refresh();
      forget(draft.key);
    },
  });

  const remove = useMutation({
    mutationFn: (id: number) => deletePermFilter(id),
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || fm.deleted);
      await refresh();
      forget(`saved-${id}`);
    },
  });

  const change = (draft: PermFilterDraft, patch: Partial<PermFilterDraft>) => {
    if (draft.id === undefined) setAdded((a) => a.map((d) => (d.key === draft.key ? { ...d, ...patch } : d)));
    else setEdits((e) => ({ ...e, [draft.key]: { ...e[draft.key], ...patch } }));
  };

  const onSave = (draft: PermFilterDraft) => {
    const problem = draftProblem(draft, fields);
    if (problem) {
      notifyWarning(problem);
      return;
    }
    save.mutate(draft);
  };

  const onDelete = (draft: PermFilterDraft) => {
    if (draft.id === undefined) {
      forget(draft.key);
      return;
    }
    const id = draft.id;
    modal.confirm({
      title: fm.confirmTitle,
      content: fm.confirmDelete,
      okText: fm.confirm,
      cancelText: fm.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(id).catch(() => undefined),
    });
  };

  const addFilter = () => {
    const draft: PermFilterDraft = {
      key: `new-${newUniqId()}`,
      cubePermName: defaultPermFilterName(drafts.length),
      group: null,
      filterJson: { relation: 'AND', conditions: [], filters: [] },
      excludeColumnIds: [],
    };
    setAdded((a) => [...a, draft]);
  };

  return (
    <Modal
      open={open}
      title={fm.dialogTitle}
      width={800}
      destroyOnHidden
      onCancel={onClose}
      afterOpenChange={(visible) => {
        if (!visible) {
          setEdits({});
          setAdded([]);
          setExpanded({});
        }
      }}
      footer={
        <Button onClick={onClose} data-testid="pf-close">
          {fm.close}
        </Button>
      }
    >
      <div className="pf-toolbar">
        <Typography.Text type="secondary">{fields.length === 0 ? fm.noFields : null}</Typography.Text>
        {isAdmin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={addFilter} data-testid="pf-add">
            {fm.add}
          </Button>
        )}
      </div>
      <Spin spinning={list.isFetching}>
        <div className="pf-list" data-testid="pf-list">
          {drafts.length === 0 && !list.isFetching && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={isAdmin ? fm.emptyHint : fm.empty} />}
          {drafts.map((draft, index) => (
            <PermFilterCard
              key={draft.key}
              draft={draft}
              index={index}
              fields={fields}
              isAdmin={isAdmin}
              expanded={expanded[draft.key] ?? false}
              saving={save.isPending && save.variables?.key === draft.key}
              onExpand={(value) => setExpanded((e) => ({ ...e, [draft.key]: value }))}
              onChange={(patch) => change(draft, patch)}
              onSave={() => onSave(draft)}
              onDelete={() => onDelete(draft)}
            />
          ))}
        </div>
      </Spin>
    </Modal>
  );
}
