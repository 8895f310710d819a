import type { DragEvent } from 'react';
import { Button, Checkbox, Select, Tooltip } from 'antd';
import { DeleteOutlined, GroupOutlined, HolderOutlined, MinusCircleOutlined, PlusCircleOutlined } from '@ant-design/icons';
import type { FilterFunction } from '@shutu/contracts';
import { FUNCTION_LABELS } from '../filter-text.ts';
import { ConditionValue } from './ConditionValue.tsx';
import { PickListValue, hasPickList } from './PickListValue.tsx';
import { ValueSourceControl } from './ValueSource.tsx';
import { fm } from './messages.ts';
import {
  RELATIVE_FUNCTIONS,
  addCondition,
  canAddCondition,
  canWrap,
  findField,
  functionsFor,
  hasField,
  patchCondition,
  removeCondition,
  removeItem,
  setConnectType,
  setFunction,
  setItemField,
  setTimeType,
  unitOf,
  wrapItem,
  type ItemRef,
  isListFunction,
  needsNoValue,
  patchItem,
} from './tree-ops.ts';
import type { FilterField, FilterItem, FilterParam, FilterTree } from './types.ts';

/** A relation toggle (且/或): a small button that flips on click. */
export function RelationToggle({ value, disabled, testId, onToggle }: { value: 'AND' | 'OR'; disabled?: boolean; testId: string; onToggle: () => void }) {
  const and = value === 'AND';
  return (
    <Tooltip title={disabled ? undefined : and ? `${fm.relationAnd} → ${fm.relationOr}` : `${fm.relationOr} → ${fm.relationAnd}`}>
      <Button
        size="small"
        shape="circle"
        type={and ? 'primary' : 'default'}
        className={`ft-relation ft-relation-${and ? 'and' : 'or'}`}
        disabled={disabled}
        onClick={onToggle}
        data-testid={testId}
      >
        {and ? fm.relationAnd : fm.relationOr}
      </Button>
    </Tooltip>
  );
}

interface Props {
  item: FilterItem;
  at: ItemRef;
  /** The item's position in the whole tree (root items first, then the groups'), for test ids. */
  flatIndex: number;
  fields: readonly FilterField[];
  params?: readonly FilterParam[];
  disabled?: boolean;
  prefix: string;
  update: (op: (tree: FilterTree) => FilterTree) => void;
  onDragStart: (at: ItemRef) => void;
  onDragEnd: () => void;
  onDropOn: (at: ItemRef, e: DragEvent) => void;
}

/** One filter item: its field, its conditions (function, time type, value, global parameter) and its actions. */
export function FilterItemEditor({ item, at, flatIndex, fields, params, disabled, prefix, update, onDragStart, onDragEnd, onDropOn }: Props) {
  const id = `${prefix}-item-${flatIndex}`;
  const field = findField(fields, item);
  const type = field?.viewDataType;
  const fieldOptions = fields.map((f) => ({ value: String(f.id), label: f.title }));
  if (hasField(item) && !field) fieldOptions.push({ value: String(item.cubeColumnId), label: `${item.column ?? item.cubeColumnId}（${fm.fieldMissing}）` });
  const fnOptions = functionsFor(type).map((fn) => ({ value: fn, label: FUNCTION_LABELS[fn] }));
  const paramOptions = (params ?? []).map((p) => ({ value: p.paramKey, label: `${p.paramName}（${p.paramKey}）` }));
  const multi = item.conditions.length > 1;

  return (
    <div
      className="ft-item"
      data-testid={id}
      onDragOver={(e) => {
        if (!disabled) e.preventDefault();
      }}
      onDrop={(e) => onDropOn(at, e)}
    >
      <div className="ft-item-head">
        {!disabled && (
          <span
            className="ft-drag"
            draggable
            role="button"
            aria-label={fm.dragHandle}
            data-testid={`${id}-drag`}
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(flatIndex));
              onDragStart(at);
            }}
            onDragEnd={onDragEnd}
          >
            <HolderOutlined />
          </span>
        )}
        <Select<string>
          className="ft-field"
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={fm.fieldPlaceholder}
          disabled={disabled}
          status={hasField(item) && !field ? 'warning' : undefined}
          value={hasField(item) ? String(item.cubeColumnId) : undefined}
          options={fieldOptions}
          onChange={(value) => {
            const next = fields.find((f) => String(f.id) === value);
            if (next) update((t) => setItemField(t, at, next, field));
          }}
          data-testid={`${id}-field`}
          aria-label={fm.fieldPlaceholder}
        />
        {field && type !== 'DATETIME' && (
          <ValueSourceControl item={item} disabled={disabled} testId={`${id}-source`} onChange={(next) => update((t) => patchItem(t, at, () => next))} />
        )}
        {multi && (
          <RelationToggle
            value={item.connectType === 'or' ? 'OR' : 'AND'}
            disabled={disabled}
            testId={`${id}-connect`}
            onToggle={() => update((t) => setConnectType(t, at, item.connectType === 'or' ? 'and' : 'or'))}
          />
        )}
        <span className="ft-item-actions">
          {!disabled && canAddCondition(item) && (
            <Tooltip title="增加条件">
              <Button
                size="small"
                type="text"
                icon={<PlusCircleOutlined />}
                aria-label="增加条件"
                data-testid={`${id}-add-condition`}
                onClick={() => update((t) => addCondition(t, at, type))}
              />
            </Tooltip>
          )}
          {!disabled && canWrap(at.node) && (
            <Button size="small" type="link" icon={<GroupOutlined />} data-testid={`${id}-wrap`} onClick={() => update((t) => wrapItem(t, at))}>
              {fm.nest}
            </Button>
          )}
          {!disabled && (
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={fm.remove}
              data-testid={`${id}-remove`}
              onClick={() => update((t) => removeItem(t, at))}
            />
          )}
        </span>
      </div>
      <div className="ft-conditions">
        {item.conditions.map((c, ci) => {
          const s = ci === 0 ? '' : `-c${ci}`;
          const usingParam = params !== undefined && c.useParam;
          return (
            <div className="ft-condition" key={ci} data-testid={`${id}-condition${s}`}>
              <Select<FilterFunction>
                className="ft-fn"
                disabled={disabled || !field}
                value={c.function}
                options={fnOptions}
                onChange={(fn) => update((t) => setFunction(t, at, ci, fn))}
                data-testid={`${id}-fn${s}`}
                aria-label={fm.functionPlaceholder}
              />
              {type === 'DATETIME' && !usingParam && RELATIVE_FUNCTIONS.includes(c.function) && (
                <Select<'absolute' | 'relative'>
                  className="ft-time-type"
                  disabled={disabled}
                  value={c.timeType}
                  options={[
                    { value: 'absolute', label: fm.timeAbsolute },
                    { value: 'relative', label: fm.timeRelative },
                  ]}
                  onChange={(tt) => update((t) => setTimeType(t, at, ci, tt))}
                  data-testid={`${id}-time-type${s}`}
                  aria-label={fm.timeRelative}
                />
              )}
              {usingParam ? (
                <Select<string>
                  className="ft-param"
                  placeholder={fm.paramPlaceholder}
                  disabled={disabled}
                  value={c.paramKey ?? undefined}
                  options={paramOptions}
                  showSearch={{ optionFilterProp: 'label' }}
                  onChange={(paramKey) => update((t) => patchCondition(t, at, ci, { paramKey }))}
                  data-testid={`${id}-param${s}`}
                  aria-label={fm.paramPlaceholder}
                />
              ) : (
                field &&
                (type !== 'DATETIME' && hasPickList(item) && !needsNoValue(c.function) ? (
                  <PickListValue
                    item={item}
                    multiple={isListFunction(c.function)}
                    values={c.values}
                    disabled={disabled}
                    testId={`${id}-value${s}`}
                    onChange={(values) => update((t) => patchCondition(t, at, ci, { values }))}
                  />
                ) : (
                  <ConditionValue
                    condition={c}
                    type={type}
                    unit={unitOf(c, item)}
                    disabled={disabled}
                    testId={`${id}-value${s}`}
                    onChange={(patch) => update((t) => patchCondition(t, at, ci, patch))}
                  />
                ))
              )}
              {params !== undefined && (
                <Checkbox
                  className="ft-use-param"
                  disabled={disabled}
                  checked={c.useParam}
                  onChange={(e) => update((t) => patchCondition(t, at, ci, { useParam: e.target.checked, paramKey: e.target.checked ? c.paramKey : null }))}
                  data-testid={`${id}-use-param${s}`}
                >
                  {fm.useParam}
                </Checkbox>
              )}
              {!disabled && multi && (
                <Button
                  size="small"
                  type="text"
                  icon={<MinusCircleOutlined />}
                  aria-label={fm.removeCondition}
                  data-testid={`${id}-remove-condition${s}`}
                  onClick={() => update((t) => removeCondition(t, at, ci))}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
