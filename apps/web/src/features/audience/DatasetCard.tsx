import { Button, Card, Form, Select, Space, Tag, Tooltip } from 'antd';
import { DeleteOutlined, DownOutlined, EyeOutlined, UpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { AUDIENCE_CONNECT_LABELS, AUDIENCE_MAX_OUTPUTS } from '@shutu/contracts';
import { FilterTreeEditor } from '../dataset/filter/FilterTreeEditor.tsx';
import type { FilterTree } from '../dataset/filter/types.ts';
import { fetchCubeFields } from './api.ts';
import { canAddOutput, nextConnect, type CardState, type FilterTreeValue } from './editor-model.ts';
import { aum } from './messages.ts';

interface Props {
  card: CardState;
  index: number;
  onChange: (card: CardState) => void;
  onRemove: () => void;
  onPreview: () => void;
}

/**
 * One dataset card (spec 3 §2): key field (exactly one), output fields (at most 5), where- and
 * having-rules as filter trees (且/或, two levels, drag within a tree), preview, delete,
 * expand / collapse, and — from the second card on — the connect type 交 → 并 → 差.
 */
export function DatasetCard({ card, index, onChange, onRemove, onPreview }: Props) {
  const fields = useQuery({ queryKey: ['audience', 'fields', card.cubeId], queryFn: () => fetchCubeFields(card.cubeId!), enabled: card.cubeId !== null });
  const all = (fields.data ?? []).filter((f) => f.hiddenStatus !== 1);
  const options = all.map((f) => ({ value: f.id, label: f.columnTitle }));
  const filterFields = all.map((f) => ({ id: f.id, title: f.columnTitle, viewDataType: f.viewDataType }));
  const measures = filterFields.filter((f) => all.find((x) => x.id === f.id)?.dimensionType === 'ZHIBIAO');
  const set = (patch: Partial<CardState>) => onChange({ ...card, ...patch });
  const p = `audience-card-${index}`;

  const connect =
    index > 0 ? (
      <div className="audience-connect">
        <Tooltip title={aum.connectHint}>
          <Button shape="round" onClick={() => set({ connectType: nextConnect(card.connectType) })} data-testid={`${p}-connect`}>
            {AUDIENCE_CONNECT_LABELS[card.connectType]}
          </Button>
        </Tooltip>
      </div>
    ) : null;

  return (
    <>
      {connect}
      <Card
        size="small"
        className="audience-card"
        data-testid={p}
        title={
          <Space>
            <Tag color={card.audienceId ? 'purple' : 'blue'}>{card.audienceId ? aum.kindLabels.import : aum.datasets}</Tag>
            {card.cubeName}
          </Space>
        }
        extra={
          <Space size={0}>
            {card.cubeId !== null && (
              <Button type="text" icon={<EyeOutlined />} onClick={onPreview} data-testid={`${p}-preview`}>
                {aum.preview}
              </Button>
            )}
            <Button type="text" icon={card.expanded ? <UpOutlined /> : <DownOutlined />} onClick={() => set({ expanded: !card.expanded })} />
            <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} data-testid={`${p}-remove`} />
          </Space>
        }
      >
        {card.cubeId !== null && card.expanded && (
          <Form layout="vertical">
            <Space wrap align="start">
              <Form.Item label={aum.keyField} required>
                <Select
                  style={{ width: 220 }}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={options}
                  value={card.phoneField ?? undefined}
                  onChange={(v: number) => set({ phoneField: v })}
                  data-testid={`${p}-key`}
                />
              </Form.Item>
              <Form.Item label={`${aum.outputs}（≤${AUDIENCE_MAX_OUTPUTS}）`}>
                <Select
                  mode="multiple"
                  style={{ width: 360 }}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={options.map((o) => ({ ...o, disabled: !card.columns.includes(o.value) && !canAddOutput(card.columns) }))}
                  value={card.columns}
                  onChange={(v: number[]) => set({ columns: v.slice(0, AUDIENCE_MAX_OUTPUTS) })}
                  data-testid={`${p}-outputs`}
                />
              </Form.Item>
            </Space>
            <Form.Item label={aum.whereRules}>
              <FilterTreeEditor
                value={card.filter as FilterTree}
                onChange={(t) => set({ filter: t as FilterTreeValue })}
                fields={filterFields}
                testIdPrefix={`${p}-where`}
              />
            </Form.Item>
            <Form.Item label={aum.havingRules}>
              <FilterTreeEditor
                value={card.having as FilterTree}
                onChange={(t) => set({ having: t as FilterTreeValue })}
                fields={measures}
                testIdPrefix={`${p}-having`}
              />
            </Form.Item>
          </Form>
        )}
      </Card>
    </>
  );
}
