import { useEffect, useState } from 'react';
import { App, Button, Input, Space, Table } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DICT_DEFAULT_PAGE_SIZE, DICT_PAGE_SIZES, type Dict, type Page } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { usePermission } from '../../shared/session.ts';
import { dictKeys, removeDicts, type DictListParams } from './api.ts';
import { dictColumns } from './columns.tsx';

export interface DictTableProps {
  testId: string;
  queryKey: (p: DictListParams) => readonly unknown[];
  fetch: (p: DictListParams) => Promise<Page<Dict>>;
  addLabel: string;
  searchPlaceholder: string;
  onAdd: () => void;
  onEdit: (row: Dict) => void;
  /** Parent table: the row whose children are shown, highlighted. */
  activeId?: number;
  onRowClick?: (row: Dict) => void;
  onRemoved?: (ids: number[]) => void;
  /** Called with the fresh copy of the active row whenever the page reloads (after an edit). */
  onActiveLoaded?: (row: Dict) => void;
}

const stopClicksFrom = '.ant-table-selection-column, button, a, .ant-checkbox-wrapper';

/** One CRUD table of the dictionary manager: search, pages of 5/10/30/50/100/200, selection and batch delete. */
export function DictTable(props: DictTableProps) {
  const { modal } = App.useApp();
  const can = usePermission();
  const queryClient = useQueryClient();
  const [params, setParams] = useState<DictListParams>({ current: 1, size: DICT_DEFAULT_PAGE_SIZE, query: '' });
  const [selected, setSelected] = useState<number[]>([]);
  const list = useQuery({ queryKey: props.queryKey(params), queryFn: () => props.fetch(params), placeholderData: keepPreviousData, staleTime: 0 });
  const records = list.data?.records ?? [];
  const { activeId, onActiveLoaded } = props;

  useEffect(() => {
    const row = list.data?.records.find((r) => r.id === activeId);
    if (row && onActiveLoaded) onActiveLoaded(row);
  }, [list.data, activeId, onActiveLoaded]);

  const canAdd = can('dict_add');
  const canEdit = can('dict_edit');
  const canDelete = can('dict_delete');

  const remove = useMutation({
    mutationFn: removeDicts,
    onSuccess: async (_, ids) => {
      notifySuccess(msg.deleted);
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      if (params.current > 1 && ids.length >= records.length) setParams((p) => ({ ...p, current: p.current - 1 }));
      props.onRemoved?.(ids);
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
    },
  });

  const confirmRemove = (ids: number[]) => {
    if (ids.length === 0) {
      notifyWarning(msg.dictSelectAtLeastOne);
      return;
    }
    modal.confirm({
      title: t.confirmTitle,
      content: msg.dictConfirmBatchDelete,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });
  };

  const columns = dictColumns({ canEdit, canDelete, onEdit: props.onEdit, onDelete: (row) => confirmRemove([row.id]) });

  return (
    <div className="dict-table" data-testid={props.testId}>
      <div className="table-toolbar">
        <Input.Search
          className="table-search"
          placeholder={props.searchPlaceholder}
          allowClear
          enterButton={t.search}
          onSearch={(value) => {
            const query = value.trim();
            setSelected([]);
            // Searching again for the same text refreshes the list.
            if (query === params.query && params.current === 1) void list.refetch();
            else setParams((p) => ({ ...p, current: 1, query }));
          }}
        />
        <Space>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={props.onAdd}>
              {props.addLabel}
            </Button>
          )}
          {canDelete && (
            <Button danger icon={<DeleteOutlined />} onClick={() => confirmRemove(selected)}>
              {t.batchDelete}
            </Button>
          )}
        </Space>
      </div>
      <Table<Dict>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={records}
        loading={list.isFetching}
        rowSelection={canDelete ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), columnWidth: 36 } : undefined}
        rowClassName={(row) => [props.onRowClick ? 'dict-row-clickable' : '', row.id === props.activeId ? 'dict-row-active' : ''].join(' ')}
        onRow={(row) => ({
          onClick: (e) => {
            if ((e.target as HTMLElement).closest(stopClicksFrom)) return;
            props.onRowClick?.(row);
          },
        })}
        pagination={{
          current: params.current,
          pageSize: params.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: DICT_PAGE_SIZES.map(String),
          showTotal: t.total,
          size: 'small',
          onChange: (current, size) => setParams((p) => ({ ...p, current: size !== p.size ? 1 : current, size })),
        }}
      />
    </div>
  );
}
