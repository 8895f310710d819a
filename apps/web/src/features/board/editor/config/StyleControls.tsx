import { useState } from 'react';
import { Button, ColorPicker, Tooltip } from 'antd';
import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { cm } from './messages.ts';

/**
 * A colour control: shows the colour (or nothing), reports hex on release (one undo step per
 * pick, not one per drag), and clears to null.
 */
export function ColorField({
  value,
  onChange,
  testId,
  label,
}: {
  value: string | null | undefined;
  onChange: (color: string | null) => void;
  testId?: string;
  label: string;
}) {
  const [dragging, setDragging] = useState<string | null>(null);
  return (
    <ColorPicker
      size="small"
      allowClear
      showText
      value={dragging ?? value ?? null}
      onChange={(_c, css) => setDragging(css)}
      onChangeComplete={(c) => {
        setDragging(null);
        onChange(c.toHexString());
      }}
      onClear={() => {
        setDragging(null);
        onChange(null);
      }}
      data-testid={testId}
      aria-label={label}
    />
  );
}

/** Preset palettes for series colours (ECharts default first). */
export const PALETTES: readonly { name: string; colors: readonly string[] }[] = [
  { name: '经典', colors: ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'] },
  { name: '商务蓝', colors: ['#1f4e79', '#2e75b6', '#5b9bd5', '#9dc3e6', '#bdd7ee', '#deebf7'] },
  { name: '清新', colors: ['#37a2da', '#32c5e9', '#67e0e3', '#9fe6b8', '#ffdb5c', '#ff9f7f', '#fb7293', '#e062ae'] },
  { name: '暖阳', colors: ['#c23531', '#d48265', '#e98f6f', '#f2b880', '#f6d186', '#91c7ae'] },
  { name: '科技', colors: ['#00e4ff', '#0072ff', '#7b61ff', '#00d68f', '#ffc542', '#ff5b5b'] },
];

const sameColors = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c.toLowerCase() === b[i]!.toLowerCase());

/** Series colours: pick a preset, or edit the colours one by one; empty: the renderer's default. */
export function ColorsEditor({ colors, onChange }: { colors: readonly string[]; onChange: (colors: string[] | null) => void }) {
  return (
    <div className="ccp-colors">
      <div className="ccp-palettes">
        {PALETTES.map((p) => (
          <button
            type="button"
            key={p.name}
            className={sameColors(colors, p.colors) ? 'ccp-palette active' : 'ccp-palette'}
            onClick={() => onChange([...p.colors])}
            data-testid="ccp-palette"
            data-name={p.name}
            title={p.name}
          >
            <span className="ccp-palette-name">{p.name}</span>
            <span className="ccp-palette-swatches">
              {p.colors.map((c) => (
                <i key={c} style={{ background: c }} />
              ))}
            </span>
          </button>
        ))}
      </div>
      <div className="ccp-custom-colors" data-testid="ccp-custom-colors">
        {colors.map((c, i) => (
          <span key={`${i}-${c}`} className="ccp-custom-color">
            <ColorField
              label={`${cm.customColors} ${i + 1}`}
              value={c}
              onChange={(v) => onChange(v ? colors.map((x, j) => (j === i ? v : x)) : colors.filter((_, j) => j !== i))}
            />
            <Button
              size="small"
              type="text"
              icon={<CloseOutlined />}
              aria-label={cm.remove}
              onClick={() => onChange(colors.length > 1 ? colors.filter((_, j) => j !== i) : null)}
            />
          </span>
        ))}
        <Tooltip title={cm.addColor}>
          <Button
            size="small"
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => onChange([...colors, PALETTES[0]!.colors[colors.length % PALETTES[0]!.colors.length]!])}
            data-testid="ccp-add-color"
          >
            {cm.addColor}
          </Button>
        </Tooltip>
      </div>
    </div>
  );
}
