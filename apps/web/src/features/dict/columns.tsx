import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dict } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';

export interface RowActions {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (row: Dict) => void;
  onDelete: (row: Dict) => void;
}

/** 字典编号, 字典名称, 字典键值, 排序, 封存, 备注 and, when the user may change something, 操作. */
export function dictColumns(actions: RowActions): ColumnsType<Dict> {
  const columns: ColumnsType<Dict> = [
    { title: t.dictCode, dataIndex: 'code', key: 'code', ellipsis: { showTitle: true } },
    { title: t.dictValue, dataIndex: 'dictValue', key: 'dictValue', ellipsis: { showTitle: true } },
    { title: t.dictKey, dataIndex: 'dictKey', key: 'dictKey', width: 76, align: 'center' },
    { title: t.dictSort, dataIndex: 'sort', key: 'sort', width: 56, align: 'center' },
    {
      title: t.dictSealed,
      dataIndex: 'isSealed',
      key: 'isSealed',
      width: 56,
      align: 'center',
      render: (v: number) => (v === 1 ? <Tag color="orange">{t.yes}</Tag> : <Tag color="green">{t.no}</Tag>),
    },
    {
      title: t.dictRemark,
      dataIndex: 'remark',
      key: 'remark',
      ellipsis: { showTitle: true },
      render: (v: string | null) => (v ? v : <Typography.Text type="secondary">-</Typography.Text>),
    },
  ];
  if (actions.canEdit || actions.canDelete) {
    columns.push({
      title: t.actions,
      key: 'actions',
      width: 96,
      render: (_, row) => (
        <Space size={0} className="row-actions">
          {actions.canEdit && (
            <Button type="link" size="small" onClick={() => actions.onEdit(row)}>
              {t.edit}
            </Button>
          )}
          {actions.canDelete && (
            <Button type="link" size="small" danger onClick={() => actions.onDelete(row)}>
              {t.delete}
            </Button>
          )}
        </Space>
      ),
    });
  }
  return columns;
}
