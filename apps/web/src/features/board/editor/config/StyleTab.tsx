import { Input, InputNumber, Segmented, Select, Switch } from 'antd';
import type { BoardType, Chart } from '@shutu/contracts';
import { AUTO_FORMAT } from '../../../../shared/charts/format.ts';
import { readOptions, safeUrl } from '../../../../shared/charts/model.ts';
import { NUMBER_FORMATS } from '../../../dataset/editor/batch-ops.ts';
import { useChartFields } from './data.ts';
import { cm } from './messages.ts';
import { formatsOf, setFormat, withExt, withOption, withSite } from './rules.ts';
import { Row, Section } from './Section.tsx';
import { ColorField, ColorsEditor } from './StyleControls.tsx';

export interface StyleTabProps {
  chart: Chart;
  boardType: BoardType;
  onChange: (chart: Chart) => void;
}

const SERIES_TYPES = ['bar', 'line', 'pie'];
const AXIS_TYPES = ['bar', 'line'];
const FORMAT_TYPES = ['bar', 'line', 'pie', 'table', 'pivot', 'card', 'detail'];
const CHART_OPTION_KEYS = [
  'showLegend',
  'showLabel',
  'stack',
  'smooth',
  'horizontal',
  'donut',
  'axisFontSize',
  'axisFontColor',
  'showTotal',
  'structureFilter',
];

const urlError = (url: string | null | undefined) => (url && url.trim() !== '' && !safeUrl(url) ? cm.urlInvalid : null);
const unset = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, undefined]));

/** 样式: title, frame, colours, chart switches, number formats; text and image charts their content. */
export function StyleTab({ chart, boardType, onChange }: StyleTabProps) {
  const o = readOptions(chart);
  const type = chart.name;
  const site = chart.site;
  const option = (patch: Record<string, unknown>) => onChange(withOption(chart, patch));
  const setSite = (patch: Partial<Chart['site']>) => onChange(withSite(chart, patch));

  return (
    <div className="ccp-tab" data-testid="ccp-style">
      <Section
        title={cm.sectionTitle}
        testId="ccp-style-title"
        onClear={() => setSite({ isSimple: false, titleFontSize: null, titleFontColor: null, fontWeight: null })}
      >
        <Row label={cm.title}>
          <Input
            size="small"
            maxLength={100}
            placeholder={cm.titlePlaceholderChart}
            value={chart.title}
            onChange={(e) => onChange({ ...chart, title: e.target.value })}
            data-testid="ccp-title"
          />
        </Row>
        <Row label={cm.showTitle}>
          <Switch size="small" checked={!site.isSimple} onChange={(v) => setSite({ isSimple: !v })} data-testid="ccp-show-title" />
        </Row>
        <Row label={cm.titleFontSize}>
          <InputNumber
            size="small"
            placeholder={cm.defaultPlaceholder}
            min={8}
            max={96}
            precision={0}
            value={site.titleFontSize ?? null}
            onChange={(v) => setSite({ titleFontSize: v ?? null })}
            data-testid="ccp-title-size"
            className="ccp-grow"
          />
        </Row>
        <Row label={cm.titleFontColor}>
          <ColorField label={cm.titleFontColor} value={site.titleFontColor} onChange={(v) => setSite({ titleFontColor: v })} />
        </Row>
        <Row label={cm.titleBold}>
          <Switch
            size="small"
            checked={site.fontWeight === 'bold'}
            onChange={(v) => setSite({ fontWeight: v ? 'bold' : 'normal' })}
            data-testid="ccp-title-bold"
          />
        </Row>
      </Section>

      <Section
        title={cm.sectionFrame}
        testId="ccp-style-frame"
        onClear={() => setSite({ bgColor: null, bgBackgroundSrc: null, anchor: null, isDiglog: false, isFilexd: false })}
      >
        <Row label={cm.bgColor}>
          <ColorField label={cm.bgColor} value={site.bgColor} onChange={(v) => setSite({ bgColor: v })} />
        </Row>
        <Row label={cm.bgImage} error={urlError(site.bgBackgroundSrc)}>
          <Input
            size="small"
            allowClear
            maxLength={2000}
            placeholder={cm.urlPlaceholder}
            value={site.bgBackgroundSrc ?? ''}
            status={urlError(site.bgBackgroundSrc) ? 'error' : undefined}
            onChange={(e) => setSite({ bgBackgroundSrc: e.target.value || null })}
            data-testid="ccp-bg-image"
          />
        </Row>
        <Row label={cm.anchor}>
          <Input
            size="small"
            allowClear
            maxLength={50}
            placeholder={cm.anchorPlaceholder}
            value={site.anchor ?? ''}
            onChange={(e) => setSite({ anchor: e.target.value || null })}
            data-testid="ccp-anchor"
          />
        </Row>
        <Row label={cm.dialog}>
          <Switch size="small" checked={site.isDiglog} onChange={(v) => setSite({ isDiglog: v })} data-testid="ccp-dialog" />
        </Row>
        {boardType === 'screen' && (
          <Row label={<span title={cm.fixedHint}>{cm.fixed}</span>}>
            <Switch size="small" checked={site.isFilexd} onChange={(v) => setSite({ isFilexd: v })} data-testid="ccp-fixed" />
          </Row>
        )}
      </Section>

      {SERIES_TYPES.includes(type) && (
        <Section title={cm.sectionColors} testId="ccp-style-colors" onClear={o.colors ? () => option({ colors: undefined }) : undefined}>
          <ColorsEditor colors={o.colors ?? []} onChange={(colors) => option({ colors: colors && colors.length > 0 ? colors : undefined })} />
        </Section>
      )}

      {(SERIES_TYPES.includes(type) || type === 'pivot' || type === 'table') && (
        <Section title={cm.sectionChart} testId="ccp-style-chart" onClear={() => option(unset(CHART_OPTION_KEYS))}>
          {SERIES_TYPES.includes(type) && (
            <>
              <Toggle label={cm.showLegend} checked={o.showLegend} onChange={(v) => option({ showLegend: v })} testId="ccp-legend" />
              <Toggle label={cm.showLabel} checked={o.showLabel} onChange={(v) => option({ showLabel: v })} testId="ccp-label" />
            </>
          )}
          {AXIS_TYPES.includes(type) && <Toggle label={cm.stack} checked={o.stack} onChange={(v) => option({ stack: v })} testId="ccp-stack" />}
          {type === 'line' && <Toggle label={cm.smooth} checked={o.smooth} onChange={(v) => option({ smooth: v })} testId="ccp-smooth" />}
          {type === 'bar' && <Toggle label={cm.horizontal} checked={o.horizontal} onChange={(v) => option({ horizontal: v })} testId="ccp-horizontal" />}
          {type === 'pie' && <Toggle label={cm.donut} checked={o.donut} onChange={(v) => option({ donut: v })} testId="ccp-donut" />}
          {AXIS_TYPES.includes(type) && (
            <>
              <Row label={cm.axisFontSize}>
                <InputNumber
                  size="small"
                  placeholder={cm.defaultPlaceholder}
                  min={8}
                  max={48}
                  precision={0}
                  value={o.axisFontSize}
                  onChange={(v) => option({ axisFontSize: v ?? undefined })}
                  className="ccp-grow"
                  data-testid="ccp-axis-size"
                />
              </Row>
              <Row label={cm.axisFontColor}>
                <ColorField label={cm.axisFontColor} value={o.axisFontColor} onChange={(v) => option({ axisFontColor: v ?? undefined })} />
              </Row>
            </>
          )}
          {(type === 'pivot' || type === 'table') && (
            <Toggle label={cm.showTotal} checked={o.showTotal} onChange={(v) => option({ showTotal: v })} testId="ccp-total" />
          )}
          {type === 'pivot' && (
            <>
              <Toggle label={cm.structureFilter} checked={o.structureFilter} onChange={(v) => option({ structureFilter: v })} testId="ccp-structure" />
            </>
          )}
        </Section>
      )}

      {FORMAT_TYPES.includes(type) && <FormatsSection chart={chart} onChange={onChange} />}

      {type === 'text' && (
        <Section
          title={cm.sectionText}
          testId="ccp-style-text"
          onClear={() => onChange(withOption(withExt(chart, { text: null }), unset(['fontSize', 'color', 'textAlign'])))}
        >
          <Input.TextArea
            rows={5}
            maxLength={20000}
            placeholder={cm.textPlaceholder}
            value={chart.ext.text ?? ''}
            onChange={(e) => onChange(withExt(chart, { text: e.target.value }))}
            data-testid="ccp-text"
          />
          <Row label={cm.textFontSize}>
            <InputNumber
              size="small"
              placeholder={cm.defaultPlaceholder}
              min={8}
              max={200}
              precision={0}
              value={o.textFontSize}
              onChange={(v) => option({ fontSize: v ?? undefined })}
              className="ccp-grow"
              data-testid="ccp-text-size"
            />
          </Row>
          <Row label={cm.textColor}>
            <ColorField label={cm.textColor} value={o.textColor} onChange={(v) => option({ color: v ?? undefined })} />
          </Row>
          <Row label={cm.textAlign}>
            <Segmented
              size="small"
              value={o.textAlign}
              options={[
                { value: 'left', label: cm.alignLeft },
                { value: 'center', label: cm.alignCenter },
                { value: 'right', label: cm.alignRight },
              ]}
              onChange={(v) => option({ textAlign: v })}
            />
          </Row>
        </Section>
      )}

      {type === 'image' && (
        <Section title={cm.sectionImage} testId="ccp-style-image" onClear={() => onChange(withExt(chart, { imageUrl: null }))}>
          <Row label={cm.imageUrl} error={urlError(chart.ext.imageUrl)}>
            <Input
              size="small"
              allowClear
              maxLength={2000}
              placeholder={cm.urlPlaceholder}
              value={chart.ext.imageUrl ?? ''}
              status={urlError(chart.ext.imageUrl) ? 'error' : undefined}
              onChange={(e) => onChange(withExt(chart, { imageUrl: e.target.value || null }))}
              data-testid="ccp-image-url"
            />
          </Row>
        </Section>
      )}
    </div>
  );
}

function Toggle({ label, checked, onChange, testId }: { label: string; checked: boolean; onChange: (v: boolean) => void; testId: string }) {
  return (
    <Row label={label}>
      <Switch size="small" checked={checked} onChange={onChange} data-testid={testId} />
    </Row>
  );
}

/** 数字格式: per measure (detail tables: per numeric column), among the dataset editor's built-in formats. */
function FormatsSection({ chart, onChange }: { chart: Chart; onChange: (chart: Chart) => void }) {
  const fields = useChartFields(chart.dataconfig?.cubeId);
  const formats = formatsOf(chart);
  const config = chart.dataconfig;
  const ids = !config
    ? []
    : chart.name === 'detail'
      ? config.rowParamList.map((d) => d.fieldId).filter((id) => fields.data?.find((f) => f.id === id)?.viewDataType === 'NUMBER')
      : config.indexParamList.map((m) => m.fieldId);
  const unique = [...new Set(ids)];
  const titleOf = (id: number) => {
    const item = config?.indexParamList.find((m) => m.fieldId === id && m.title) ?? config?.rowParamList.find((d) => d.fieldId === id && d.title);
    return item?.title ?? fields.data?.find((f) => f.id === id)?.columnTitle ?? String(id);
  };
  return (
    <Section
      title={cm.sectionFormats}
      testId="ccp-style-formats"
      onClear={Object.keys(formats).length > 0 ? () => onChange(withOption(chart, { formats: undefined })) : undefined}
    >
      {unique.length === 0 && <div className="ccp-muted">{cm.formatsEmpty}</div>}
      {unique.map((id) => (
        <Row key={id} label={titleOf(id)}>
          <Select
            size="small"
            className="ccp-grow"
            value={formats[String(id)] ?? AUTO_FORMAT}
            options={NUMBER_FORMATS.map((f) => ({ value: f.value, label: f.label }))}
            onChange={(v) => onChange(setFormat(chart, id, v, AUTO_FORMAT))}
            data-testid="ccp-format"
            data-field={id}
          />
        </Row>
      ))}
    </Section>
  );
}
