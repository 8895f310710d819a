import { Input, Select, Space, Tag, Typography } from 'antd';
import type { ShowField } from '@shutu/contracts';
import { am } from '../messages.ts';
import { addToPanel, movePanel, placeInPanel, removeFromPanel, type PanelKey, type Panels } from '../model.ts';

/** A tag dragged within or between panels carries this type; a field from the list carries text/plain. */
const TAG_TYPE = 'application/x-shutu-panel-field';

const PANELS: { key: PanelKey; label: string }[] = [
  { key: 'rows', label: am.rowDims },
  { key: 'cols', label: am.colDims },
  { key: 'indicators', label: am.indicatorsPanel },
];

interface Props {
  fields: ShowField[];
  onFields: (fields: ShowField[]) => void;
  panels: Panels;
  onPanels: (panels: Panels) => void;
}

/**
 * Preview settings (spec 2 §2): row dimensions, column dimensions and indicators; a field is added by
 * clicking it (to its kind's panel) or dragging it onto a panel, removed by its close icon, and
 * its tag dragged onto another tag goes just before it (reordering, within or across panels); the
 * field list renames and sets the kind. A field already in a panel is ignored.
 */
export function PreviewPanels({ fields, onFields, panels, onPanels }: Props) {
  const title = (c: string) => fields.find((f) => f.columnName === c)?.columnComments || c;
  const clickAdd = (f: ShowField) => onPanels(addToPanel(panels, f.dataType === 1 ? 'indicators' : 'rows', f.columnName));
  const setField = (columnName: string, patch: Partial<ShowField>) => onFields(fields.map((f) => (f.columnName === columnName ? { ...f, ...patch } : f)));
  return (
    <div data-testid="dataapi-panels">
      {PANELS.map((p) => (
        <div key={p.key} style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
          <Typography.Text style={{ width: 64, flex: 'none' }}>{p.label}</Typography.Text>
          <div
            className="dataapi-panel"
            style={{ flex: 1 }}
            data-testid={`dataapi-panel-${p.key}`}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const tag = e.dataTransfer.getData(TAG_TYPE);
              // Dropped on a tag: just before it; on the panel's free space: at its end.
              const before = (e.target as HTMLElement).closest<HTMLElement>('[data-panel-field]')?.dataset.panelField ?? null;
              if (tag && fields.some((f) => f.columnName === tag)) return onPanels(placeInPanel(panels, p.key, tag, before));
              const name = e.dataTransfer.getData('text/plain');
              if (fields.some((f) => f.columnName === name)) onPanels(addToPanel(panels, p.key, name));
            }}
          >
            {panels[p.key].length === 0 && <span className="dataapi-panel-empty">{am.dropHere}</span>}
            {panels[p.key].map((c) => (
              <Tag
                key={c}
                closable
                color={p.key === 'indicators' ? 'green' : 'blue'}
                onClose={() => onPanels(removeFromPanel(panels, p.key, c))}
                draggable
                onDragStart={(e) => e.dataTransfer.setData(TAG_TYPE, c)}
                data-panel-field={c}
                style={{ cursor: 'grab' }}
              >
                {title(c)}
              </Tag>
            ))}
          </div>
        </div>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {am.fieldConfig}
      </Typography.Text>
      {fields.map((f) => (
        <div key={f.columnName} className="dataapi-field" draggable onDragStart={(e) => e.dataTransfer.setData('text/plain', f.columnName)}>
          <a onClick={() => clickAdd(f)} className="dataapi-field-name" data-testid={`dataapi-field-${f.columnName}`}>
            {f.columnName}
          </a>
          <Space size={4}>
            <Input
              size="small"
              style={{ width: 110 }}
              aria-label={am.fieldTitle}
              value={f.columnComments}
              onChange={(e) => setField(f.columnName, { columnComments: e.target.value })}
            />
            <Select
              size="small"
              style={{ width: 72 }}
              value={f.dataType}
              onChange={(dataType) => {
                setField(f.columnName, { dataType });
                // A field whose kind changes moves to its kind's panel.
                const placed = panels.rows.includes(f.columnName) || panels.cols.includes(f.columnName) || panels.indicators.includes(f.columnName);
                if (placed) onPanels(movePanel(panels, f.columnName, dataType === 1 ? 'indicators' : 'rows'));
              }}
              options={[
                { value: 0, label: am.kindDimension },
                { value: 1, label: am.kindIndicator },
              ]}
            />
          </Space>
        </div>
      ))}
    </div>
  );
}
