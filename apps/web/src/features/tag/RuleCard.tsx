import { Button, Card, Checkbox, DatePicker, Input, Select, TreeSelect } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { APP_USE_RANGES, NUMBER_FUNCS, RULE_MEASURES, TEXT_FUNCS, type Tag, type TagCondition, type TagRuleDetail, type TagTreeNode } from '@shutu/contracts';
import { tg } from './messages.ts';

const MONTH = 'YYYY-MM';

export interface RuleTrees {
  product?: TagTreeNode[];
  channel?: TagTreeNode[];
  area?: TagTreeNode[];
}

interface SelectNode {
  value: string;
  title: string;
  children?: SelectNode[];
}
const toTree = (nodes: TagTreeNode[] | undefined): SelectNode[] =>
  (nodes ?? []).map((n) => ({ value: n.value, title: n.title, children: n.children ? toTree(n.children) : undefined }));

function Values({ rule, tags, trees, onChange }: { rule: TagRuleDetail; tags: Tag[]; trees: RuleTrees; onChange: (values: string[]) => void }) {
  if (rule.type === 'tag')
    return (
      <Checkbox.Group value={rule.values} onChange={(v) => onChange(v.map(String))} options={tags.map((t) => ({ value: String(t.tagId), label: t.tagName }))} />
    );
  if (rule.type === 'appuse')
    return (
      <Checkbox.Group
        value={rule.values}
        onChange={(v) => onChange(v.map(String))}
        options={Object.entries(APP_USE_RANGES).map(([value, r]) => ({ value, label: r.label }))}
      />
    );
  const tree = rule.type === 'product' ? trees.product : rule.type === 'channel' ? trees.channel : trees.area;
  return (
    <TreeSelect
      multiple
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      treeData={toTree(tree)}
      value={rule.values}
      onChange={(v: string[]) => onChange(v)}
      placeholder={tg.values}
      maxTagCount={6}
      style={{ flex: 1, minWidth: 240 }}
      treeNodeFilterProp="title"
      showSearch
    />
  );
}

function Conditions({ rule, onChange }: { rule: TagRuleDetail; onChange: (conditions: TagCondition[]) => void }) {
  const measure = RULE_MEASURES[rule.type];
  if (measure.kind === 'none') return null;
  const funcs = measure.kind === 'text' ? TEXT_FUNCS : NUMBER_FUNCS;
  const set = (i: number, c: Partial<TagCondition>) => onChange(rule.conditions.map((x, j) => (j === i ? { ...x, ...c } : x)));
  return (
    <div className="tag-rule-row">
      <span className="tag-rule-label">{tg.conditions}</span>
      {rule.conditions.map((c, i) => (
        <span key={i} className="tag-panel-extra">
          <span>{measure.label}</span>
          <Select
            size="small"
            value={c.func}
            style={{ width: 110 }}
            onChange={(func) => set(i, { func })}
            options={funcs.map((f) => ({ value: f, label: tg.funcs[f] }))}
          />
          <Input size="small" value={c.val} style={{ width: 100 }} placeholder={tg.conditionValue} onChange={(e) => set(i, { val: e.target.value })} />
          <Button size="small" type="text" icon={<DeleteOutlined />} onClick={() => onChange(rule.conditions.filter((_, j) => j !== i))} />
        </span>
      ))}
      <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...rule.conditions, { func: funcs[0], val: '' }])}>
        {tg.addCondition}
      </Button>
    </div>
  );
}

/** One rule of the rule area: its values, its own month range (optional) and its conditions. */
export function RuleCard(props: { rule: TagRuleDetail; tags: Tag[]; trees: RuleTrees; onChange: (rule: TagRuleDetail) => void; onRemove: () => void }) {
  const { rule, onChange } = props;
  return (
    <Card
      size="small"
      className="tag-rule"
      title={rule.level2name}
      data-testid={`tag-rule-${rule.level2name}`}
      extra={
        <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={props.onRemove}>
          {tg.remove}
        </Button>
      }
    >
      <div className="tag-rule-row">
        <span className="tag-rule-label">{tg.values}</span>
        <Values rule={rule} tags={props.tags} trees={props.trees} onChange={(values) => onChange({ ...rule, values })} />
      </div>
      <div className="tag-rule-row">
        <span className="tag-rule-label">{tg.daterange}</span>
        <DatePicker.RangePicker
          picker="month"
          format={MONTH}
          size="small"
          placeholder={[tg.ruleDate, '']}
          value={rule.date ? [dayjs(rule.date[0], MONTH), dayjs(rule.date[1], MONTH)] : null}
          onChange={(v) => onChange({ ...rule, date: v?.[0] && v[1] ? [v[0].format(MONTH), v[1].format(MONTH)] : null })}
        />
      </div>
      <Conditions rule={rule} onChange={(conditions) => onChange({ ...rule, conditions })} />
    </Card>
  );
}
