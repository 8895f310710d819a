import { useState } from 'react';
import { Alert, Button, Empty, Select, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Chart } from '@shutu/contracts';
import { CHART_TYPE_LABELS } from '@shutu/contracts';
import { fieldTitle, useChartFields } from './data.ts';
import { cm } from './messages.ts';
import {
  addLink,
  canDrive,
  chartName,
  configOf,
  driverCandidates,
  driverDimension,
  drivenBy,
  isFilterControl,
  isStatic,
  newLink,
  patchLink,
  removeLink,
  suggestLinkKey,
  type Link,
} from './rules.ts';
import { Row, Section } from './Section.tsx';
import { FilterTargets } from './FilterTargets.tsx';

export interface LinkTabProps {
  chart: Chart;
  charts: readonly Chart[];
  defaultCubeId?: number | null;
  onChange: (chart: Chart) => void;
}

/**
 * 联动: a data chart lists the links it receives (ext.filterList) and adds new ones; a filter
 * control lists the charts it applies to board-wide (应用到图表, with the per-chart opt-out); a
 * chart that drives others (filter controls, clickable charts) lists whom it drives by hand,
 * read-only, because those links live on the other charts.
 */
export function LinkTab({ chart, charts, defaultCubeId, onChange }: LinkTabProps) {
  if (isStatic(chart.name)) {
    return (
      <div className="ccp-tab" data-testid="ccp-links">
        <Alert type="info" showIcon title={cm.staticNoLinks} />
      </div>
    );
  }
  return (
    <div className="ccp-tab" data-testid="ccp-links">
      {!isFilterControl(chart.name) && <ReceivedLinks chart={chart} charts={charts} defaultCubeId={defaultCubeId} onChange={onChange} />}
      {isFilterControl(chart.name) && <FilterTargets chart={chart} charts={charts} onChange={onChange} />}
      {canDrive(chart.name) && <DrivenCharts chart={chart} charts={charts} />}
    </div>
  );
}

function ReceivedLinks({ chart, charts, defaultCubeId, onChange }: LinkTabProps) {
  const cubeId = configOf(chart, defaultCubeId)?.cubeId ?? null;
  const fields = useChartFields(cubeId);
  const links = chart.ext.filterList;
  const fieldOptions = (fields.data ?? []).map((f) => ({ value: f.id, label: f.columnTitle }));
  return (
    <Section
      title={cm.linksReceived}
      testId="ccp-links-received"
      onClear={links.length > 0 ? () => onChange({ ...chart, ext: { ...chart.ext, filterList: [] } }) : undefined}
    >
      <Typography.Paragraph type="secondary" className="ccp-small">
        {cm.linksReceivedHint}
      </Typography.Paragraph>
      {!cubeId ? (
        <Alert type="info" showIcon title={cm.noDataset} />
      ) : (
        <>
          {links.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={cm.linksEmpty} />}
          {links.map((link, i) => (
            <LinkRow
              key={link.linkFrom}
              link={link}
              driver={charts.find((c) => c.key === link.linkFrom)}
              fieldOptions={fieldOptions}
              onPatch={(patch) => onChange(patchLink(chart, i, patch))}
              onRemove={() => onChange(removeLink(chart, i))}
            />
          ))}
          <AddLink chart={chart} charts={charts} cubeId={cubeId} onAdd={(link) => onChange(addLink(chart, link))} />
        </>
      )}
    </Section>
  );
}

interface LinkRowProps {
  link: Link;
  driver: Chart | undefined;
  fieldOptions: { value: number; label: string }[];
  onPatch: (patch: Partial<Link>) => void;
  onRemove: () => void;
}

function LinkRow({ link, driver, fieldOptions, onPatch, onRemove }: LinkRowProps) {
  return (
    <div className="ccp-link" data-testid="ccp-link" data-from={link.linkFrom}>
      <div className="ccp-item-head">
        <span className="ccp-link-driver">
          {driver ? (
            <>
              <Tag>{CHART_TYPE_LABELS[driver.name]}</Tag>
              {chartName(driver)}
            </>
          ) : (
            <Typography.Text type="danger">{cm.linkMissingDriver(link.linkFrom)}</Typography.Text>
          )}
        </span>
        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={cm.remove} onClick={onRemove} data-testid="ccp-link-remove" />
      </div>
      <Row label={cm.linkField}>
        <Select
          size="small"
          className="ccp-grow"
          value={link.linkKey}
          options={fieldOptions}
          showSearch={{ optionFilterProp: 'label' }}
          onChange={(v) => onPatch({ linkKey: v })}
          data-testid="ccp-link-field"
        />
      </Row>
      <Row label={cm.linkEnabled}>
        <Switch size="small" checked={link.linkFlag} onChange={(v) => onPatch({ linkFlag: v })} data-testid="ccp-link-enabled" />
      </Row>
      {(!driver || isFilterControl(driver.name)) && (
        <Row label={cm.linkBegin}>
          <Switch size="small" checked={link.beginFlag} onChange={(v) => onPatch({ beginFlag: v })} data-testid="ccp-link-begin" />
        </Row>
      )}
    </div>
  );
}

/** Choose a driver, then the field it filters (preselected by the driver's dimension), then 添加联动. */
function AddLink({ chart, charts, cubeId, onAdd }: { chart: Chart; charts: readonly Chart[]; cubeId: number; onAdd: (link: Link) => void }) {
  const candidates = driverCandidates(chart, charts);
  const [driverKey, setDriverKey] = useState<string | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const driver = candidates.find((c) => c.key === driverKey);
  const fields = useChartFields(cubeId);
  const driverFields = useChartFields(driver?.dataconfig?.cubeId);
  const dim = driver ? driverDimension(driver) : null;
  const dimTitle = dim ? (dim.title ?? (driverFields.data ? fieldTitle(driverFields.data, dim.fieldId) : null)) : null;
  const suggested = driver ? suggestLinkKey(driver, cubeId, fields.data ?? [], dimTitle) : null;
  const linkKey = picked ?? suggested;

  if (candidates.length === 0) {
    return <div className="ccp-muted ccp-small">{chart.ext.filterList.length > 0 ? cm.linkNoMoreDrivers : cm.linkNoDrivers}</div>;
  }
  return (
    <div className="ccp-link-add" data-testid="ccp-link-add">
      <Row label={cm.linkDriver}>
        <Select
          size="small"
          className="ccp-grow"
          placeholder={cm.linkDriverPlaceholder}
          value={driverKey}
          options={candidates.map((c) => ({ value: c.key, label: `${chartName(c)}（${CHART_TYPE_LABELS[c.name]}）` }))}
          onChange={(v) => {
            setDriverKey(v);
            setPicked(null);
          }}
          data-testid="ccp-link-driver"
        />
      </Row>
      {dimTitle && (
        <Typography.Text type="secondary" className="ccp-small">
          {cm.linkDimension(dimTitle)}
        </Typography.Text>
      )}
      <Row label={cm.linkField}>
        <Select
          size="small"
          className="ccp-grow"
          placeholder={cm.linkFieldPlaceholder}
          disabled={!driver}
          value={linkKey}
          showSearch={{ optionFilterProp: 'label' }}
          options={(fields.data ?? []).map((f) => ({ value: f.id, label: f.columnTitle }))}
          onChange={(v) => setPicked(v)}
          data-testid="ccp-link-new-field"
        />
      </Row>
      <Button
        size="small"
        type="dashed"
        block
        icon={<PlusOutlined />}
        disabled={!driver || !linkKey}
        onClick={() => {
          if (!driver || !linkKey) return;
          onAdd(newLink(driver.key, linkKey));
          setDriverKey(null);
          setPicked(null);
        }}
        data-testid="ccp-link-add-button"
      >
        {cm.linkAdd}
      </Button>
    </div>
  );
}

function DrivenCharts({ chart, charts }: { chart: Chart; charts: readonly Chart[] }) {
  const driven = drivenBy(chart, charts);
  return (
    <Section title={cm.drives} testId="ccp-links-driven">
      {driven.length === 0 && <div className="ccp-muted">{cm.drivesEmpty}</div>}
      {driven.map(({ chart: c, enabled }) => (
        <div key={c.key} className="ccp-driven" data-testid="ccp-driven">
          <Tag>{CHART_TYPE_LABELS[c.name]}</Tag>
          <span className="ccp-grow">{chartName(c)}</span>
          <Tag color={enabled ? 'green' : 'default'}>{enabled ? cm.linkOn : cm.linkOff}</Tag>
        </div>
      ))}
      <Alert type="info" showIcon title={cm.drivesHint} className="ccp-hint" data-testid="ccp-drives-hint" />
    </Section>
  );
}
