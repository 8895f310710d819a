import { useMemo } from 'react';
import { Button, Card, Input, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, FilterOutlined, SaveOutlined } from '@ant-design/icons';
import { PERM_FILTER_NAME_MAX_LENGTH } from '@shutu/contracts';
import { AuthGroupSelector, type ChosenGroup } from '../../perm/AuthGroupSelector.tsx';
import { filterText } from '../filter-text.ts';
import { FilterTreeEditor } from './FilterTreeEditor.tsx';
import { fm } from './messages.ts';
import { addItem, itemCount, newItem } from './tree-ops.ts';
import type { FilterField, FilterTree } from './types.ts';

/** A permission filter as the dialog edits it; `id` absent: not saved yet. */
export interface PermFilterDraft {
  key: string;
  id?: number;
  cubePermName: string;
  group: ChosenGroup | null;
  filterJson: FilterTree;
  excludeColumnIds: number[];
}

interface Props {
  draft: PermFilterDraft;
  index: number;
  fields: readonly FilterField[];
  isAdmin: boolean;
  expanded: boolean;
  saving: boolean;
  onExpand: (expanded: boolean) => void;
  onChange: (patch: Partial<PermFilterDraft>) => void;
  onSave: () => void;
  onDelete: () => void;
}

/** One permission filter: name, bound group, row conditions (添加条件/设置条件), excluded columns, 添加/更新 and 删除. */
export function PermFilterCard({ draft, index, fields, isAdmin, expanded, saving, onExpand, onChange, onSave, onDelete }: Props) {
  const p = `pf-${index}`;
  const titles = useMemo(() => new Map(fields.map((f) => [String(f.id), f.title])), [fields]);
  const hasConditions = itemCount(draft.filterJson) > 0;
  const summary = filterText(draft.filterJson, titles);
  const saved = draft.id !== undefined;

  const toggleConditions = () => {
    if (expanded) return onExpand(false);
    // 'add condition' opens the editor on a first blank condition
    if (!hasConditions) onChange({ filterJson: addItem(draft.filterJson, 'root', newItem()) });
    onExpand(true);
  };

  return (
    <Card
      size="small"
      className="pf-card"
      data-testid={p}
      title={
        <>
          <FilterOutlined />
          <Input
            variant="borderless"
            className="pf-name"
            maxLength={PERM_FILTER_NAME_MAX_LENGTH}
            placeholder={fm.namePlaceholder}
            value={draft.cubePermName}
            onChange={(e) => onChange({ cubePermName: e.target.value })}
            aria-label={fm.name}
            data-testid={`${p}-name`}
          />
          {!saved && <Tag color="orange">{fm.unsaved}</Tag>}
        </>
      }
      extra={
        <Space>
          <Button type="primary" size="small" icon={<SaveOutlined />} loading={saving} onClick={onSave} data-testid={`${p}-save`}>
            {saved ? fm.update : fm.add}
          </Button>
          {isAdmin && (
            <Button danger size="small" icon={<DeleteOutlined />} onClick={onDelete} data-testid={`${p}-delete`}>
              {fm.delete}
            </Button>
          )}
        </Space>
      }
    >
      <div className="pf-row">
        <span className="pf-label">{fm.group}</span>
        <div className="pf-control">
          <AuthGroupSelector value={draft.group} onChange={(group) => onChange({ group })} />
        </div>
      </div>
      <div className="pf-row">
        <span className="pf-label">{fm.rows}</span>
        <div className="pf-control">
          <Space align="start" wrap>
            {!expanded && summary && (
              <Typography.Text className="pf-summary" data-testid={`${p}-summary`}>
                {summary}
              </Typography.Text>
            )}
            <Button size="small" type={expanded ? 'default' : 'dashed'} onClick={toggleConditions} data-testid={`${p}-conditions`}>
              {expanded ? fm.collapseCondition : hasConditions ? fm.setCondition : fm.addCondition}
            </Button>
          </Space>
          {expanded && (
            <div className="pf-tree">
              <FilterTreeEditor value={draft.filterJson} onChange={(filterJson) => onChange({ filterJson })} fields={fields} testIdPrefix={`${p}-ft`} />
            </div>
          )}
        </div>
      </div>
      <div className="pf-row">
        <span className="pf-label">{fm.excluded}</span>
        <div className="pf-control">
          <Select<number[]>
            mode="multiple"
            allowClear
            className="full-width"
            placeholder={fm.excludedPlaceholder}
            showSearch={{ optionFilterProp: 'label' }}
            value={draft.excludeColumnIds}
            options={fields.map((f) => ({ value: Number(f.id), label: f.title }))}
            onChange={(excludeColumnIds) => onChange({ excludeColumnIds })}
            aria-label={fm.excluded}
            data-testid={`${p}-excluded`}
          />
        </div>
      </div>
    </Card>
  );
}
