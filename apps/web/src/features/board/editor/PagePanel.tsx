import type { ReactNode } from 'react';
import { ColorPicker, Divider, Input, InputNumber, Switch, Typography } from 'antd';
import { et } from './messages.ts';
import type { EditorContent } from './state.ts';

interface Props {
  content: EditorContent;
  /** `field` coalesces typing in one field into one undo step. */
  onChange(patch: Partial<EditorContent>, field: string): void;
}

/** The design size's bounds (boardContentSchema). */
const limits = { width: { min: 320, max: 10000 }, height: { min: 200, max: 20000 } };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="be-form-row">
      <span className="be-form-label">{label}</span>
      <span className="be-form-control">{children}</span>
    </label>
  );
}

function Color({ value, onChange }: { value: string | null | undefined; onChange(v: string | null): void }) {
  return (
    <ColorPicker
      size="small"
      showText
      allowClear
      value={value || undefined}
      onChangeComplete={(c) => onChange(c.toHexString())}
      onClear={() => onChange(null)}
    />
  );
}

/** The page settings shown in the right panel while no chart is selected. */
export function PagePanel({ content, onChange }: Props) {
  const screen = content.type === 'screen';
  return (
    <div className="be-page-panel" data-testid="page-panel">
      <Typography.Paragraph type="secondary" className="be-page-hint">
        {et.pageHint}
      </Typography.Paragraph>
      {screen && (
        <>
          <Row label={et.width}>
            <InputNumber
              size="small"
              min={limits.width.min}
              max={limits.width.max}
              value={content.width}
              suffix="px"
              onChange={(v) => typeof v === 'number' && onChange({ width: Math.round(v) }, 'width')}
            />
          </Row>
          <Row label={et.height}>
            <InputNumber
              size="small"
              min={limits.height.min}
              max={limits.height.max}
              value={content.height}
              suffix="px"
              onChange={(v) => typeof v === 'number' && onChange({ height: Math.round(v) }, 'height')}
            />
          </Row>
        </>
      )}
      <Row label={et.bgColor}>
        <Color value={content.bgColor} onChange={(v) => onChange({ bgColor: v }, 'bgColor')} />
      </Row>
      <Row label={et.bgImg}>
        <Input
          size="small"
          allowClear
          placeholder={et.bgImgPlaceholder}
          value={content.bgImg ?? ''}
          onChange={(e) => onChange({ bgImg: e.target.value || null }, 'bgImg')}
        />
      </Row>
      {screen && (
        <Row label={et.editSwitch}>
          <Switch size="small" checked={content.editSwitch} onChange={(v) => onChange({ editSwitch: v }, 'editSwitch')} />
        </Row>
      )}
      <Divider titlePlacement="start" plain>
        {et.anchors}
      </Divider>
      <Row label={et.anchorTextSize}>
        <InputNumber
          size="small"
          min={8}
          max={48}
          value={content.anchorTextSize ?? null}
          suffix="px"
          onChange={(v) => onChange({ anchorTextSize: v ?? null }, 'anchorTextSize')}
        />
      </Row>
      <Row label={et.anchorTextColor}>
        <Color value={content.anchorTextColor} onChange={(v) => onChange({ anchorTextColor: v }, 'anchorTextColor')} />
      </Row>
      <Row label={et.anchorBgColor}>
        <Color value={content.anchorBgColor} onChange={(v) => onChange({ anchorBgColor: v }, 'anchorBgColor')} />
      </Row>
      <Row label={et.anchorIconColor}>
        <Color value={content.anchorIconColor} onChange={(v) => onChange({ anchorIconColor: v }, 'anchorIconColor')} />
      </Row>
    </div>
  );
}
