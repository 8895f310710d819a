import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Input, Select, Spin } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { HEATMAP_LIMIT, type HeatmapResult, type HeatmapTitle } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { ApiError } from '../../shared/api.ts';
import { notifyError } from '../../shared/notify.ts';
import { todayInDisplayZone } from '../../shared/time.ts';
import { useUserInfo } from '../../shared/session.ts';
import { fetchHeatmapEvents, fetchHeatmapFrame, fetchHeatmapTitles, heatmapKeys, lookupHeatmapPhone } from './api.ts';
import { DAY } from './heat-layer.ts';
import { HeatFrame } from './HeatFrame.tsx';
import { hmt } from './messages.ts';
import { SidePanel } from './SidePanel.tsx';
import './heatmap.css';

interface Filters {
  phone?: string;
  title?: string;
  range?: [Dayjs, Dayjs] | null;
}

interface Shown {
  result: HeatmapResult;
  page: HeatmapTitle;
  distinctId: string | null;
}

/** Spec 1 §9: yesterday and the day before by default; shortcuts of a week, a month and three months up to today. */
export function rangePresets(today: Dayjs) {
  return {
    initial: [today.subtract(2, 'day'), today.subtract(1, 'day')] as [Dayjs, Dayjs],
    presets: [
      { label: hmt.lastWeek, value: [today.subtract(7, 'day'), today] as [Dayjs, Dayjs] },
      { label: hmt.lastMonth, value: [today.subtract(1, 'month'), today] as [Dayjs, Dayjs] },
      { label: hmt.lastThreeMonths, value: [today.subtract(3, 'month'), today] as [Dayjs, Dayjs] },
    ],
  };
}

/** 点击热力图 (spec 1 §2.8): phone, website title, date range, query; the page with its heat layer and counts beside it. */
export function HeatmapPage() {
  const [form] = Form.useForm<Filters>();
  const [{ initial, presets }] = useState(() => rangePresets(dayjs(todayInDisplayZone())));
  const titles = useQuery({ queryKey: heatmapKeys.titles, queryFn: fetchHeatmapTitles });
  const [shown, setShown] = useState<Shown | null>(null);
  const isAdmin = useUserInfo().data?.isAdministrator === true;

  const run = useMutation({
    mutationFn: async (filters: Required<Pick<Filters, 'title'>> & Filters): Promise<Shown> => {
      const phone = filters.phone?.trim();
      const distinctId = phone ? (await lookupHeatmapPhone(phone).catch(phoneError)).shenceId : null;
      const [start, end] = filters.range!;
      const result = await fetchHeatmapEvents({
        distinctId,
        title: filters.title,
        startTime: start.format(DAY),
        endTime: end.format(DAY),
        limit: HEATMAP_LIMIT,
      });
      return { result, page: titles.data!.find((t) => t.title === filters.title)!, distinctId };
    },
    onSuccess: setShown,
    onError: notifyError,
  });

  const phoneError = (error: unknown): never => {
    if (error instanceof ApiError) form.setFields([{ name: 'phone', errors: [error.message] }]);
    throw error;
  };
  const pick = (title: string) => {
    form.setFieldValue('title', title);
    void form.validateFields().then((values) => run.mutate(values as Filters & { title: string }));
  };

  return (
    <PageContainer
      title={hmt.page}
      description={hmt.desc}
      extra={
        isAdmin && (
          <Link to="/newbi/heatmap-sites" data-testid="heatmap-sites-link">
            {hmt.manageSites}
          </Link>
        )
      }
    >
      <Card className="heatmap-form">
        <Form form={form} layout="inline" initialValues={{ range: initial }} onFinish={(values) => run.mutate(values as Filters & { title: string })}>
          <Form.Item name="phone" label={hmt.phone}>
            <Input placeholder={hmt.phonePlaceholder} allowClear style={{ width: 220 }} data-testid="heatmap-phone" />
          </Form.Item>
          <Form.Item name="title" label={hmt.title} rules={[{ required: true, message: hmt.titleRequired }]}>
            <Select
              placeholder={hmt.titlePlaceholder}
              showSearch
              optionFilterProp="label"
              loading={titles.isLoading}
              style={{ width: 200 }}
              options={(titles.data ?? []).map((t) => ({ value: t.title, label: t.title }))}
              data-testid="heatmap-title"
            />
          </Form.Item>
          <Form.Item name="range" label={hmt.range} rules={[{ required: true, message: hmt.dateRangeRequired }]}>
            <DatePicker.RangePicker presets={presets} data-testid="heatmap-range" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={run.isPending} data-testid="heatmap-query">
              {hmt.query}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <HeatmapResultView shown={shown} loading={run.isPending} onPick={pick} />
    </PageContainer>
  );
}

function HeatmapResultView({ shown, loading, onPick }: { shown: Shown | null; loading: boolean; onPick: (title: string) => void }) {
  const title = shown?.page.title ?? '';
  // Frame the page or show the server's screenshot (the server asks the site); a failed check frames it.
  const frame = useQuery({
    queryKey: heatmapKeys.frame(title),
    queryFn: () => fetchHeatmapFrame(title),
    enabled: !!shown,
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (!shown) return <Card>{loading ? <Spin /> : <Empty description={hmt.empty} />}</Card>;
  const { result, page, distinctId } = shown;
  return (
    <Spin spinning={loading}>
      <div className="heatmap-body" data-testid="heatmap-result" data-total={result.total}>
        <div className="heatmap-main">
          <div className="heatmap-summary">
            {page.title} · {hmt.userLabel(distinctId)} · {hmt.clicks} <strong data-testid="heatmap-total">{result.total}</strong>
            {result.truncated && <span> · {hmt.truncated(HEATMAP_LIMIT)}</span>}
            {' · '}
            <a href={page.viewUrl} target="_blank" rel="noreferrer">
              {hmt.openSite}
            </a>
          </div>
          <HeatFrame page={page} points={result.points} frame={frame.isError ? { mode: 'frame', reason: null } : frame.data} />
        </div>
        <SidePanel result={result} title={page.title} onPick={onPick} />
      </div>
    </Spin>
  );
}
