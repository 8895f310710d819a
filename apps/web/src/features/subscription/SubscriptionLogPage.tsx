import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, DatePicker, Descriptions, Form, Input, InputNumber, Modal, Select, Space, Table, Tabs, Tag, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import {
  NOTIFY_TYPE_LABELS,
  SUBSCRIPTION_DATA_TYPES,
  SUBSCRIPTION_DATA_TYPE_LABELS,
  SUBSCRIPTION_LOG_PAGE_SIZES,
  subscriptionPreviewPath,
  type SubscriptionDataType,
  type SubscriptionLog,
  type SubscriptionLogQuery,
} from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { fetchSubscriptionLogs, subscriptionKeys } from './api.ts';
import { formatDateTime, formatDateTimeLabelled, todayInDisplayZone } from '../../shared/time.ts';
import { sm } from './messages.ts';
import { SubscriptionList } from './SubscriptionList.tsx';

interface Filters {
  subTitle: string;
  dataType?: SubscriptionDataType;
  errCode?: number;
  userId?: number | null;
  range: [Dayjs, Dayjs];
}

/** Days go as bare dates: the server counts them on the installation's clock (系统设置 → 时区), as the page shows times. */
const DAY = 'YYYY-MM-DD';

/**
 * The filters a visit starts with (spec 1 §2.9, §4, §9): subTitle, dataType and errCode from
 * the address; the last month up to today, or from today when errCode is given.
 */
export function initialFilters(params: URLSearchParams, today: Dayjs = dayjs(todayInDisplayZone())): Filters {
  const dataType = params.get('dataType');
  const errCode = params.get('errCode');
  const hasErrCode = errCode !== null && errCode !== '' && !Number.isNaN(Number(errCode));
  return {
    subTitle: params.get('subTitle') ?? '',
    dataType: (SUBSCRIPTION_DATA_TYPES as readonly string[]).includes(dataType ?? '') ? (dataType as SubscriptionDataType) : undefined,
    errCode: hasErrCode ? (Number(errCode) === 0 ? 0 : 1) : undefined,
    range: [hasErrCode ? today.startOf('day') : today.subtract(1, 'month').startOf('day'), today.startOf('day')],
  };
}

/** The list call: the end day is extended by one (spec 1 §5), so the chosen last day is included. */
export function logQuery(filters: Filters, current: number, size: number): SubscriptionLogQuery {
  return {
    current,
    size,
    subTitle: filters.subTitle.trim() || undefined,
    dataType: filters.dataType,
    errCode: filters.errCode,
    userId: filters.userId ?? undefined,
    startTime: filters.range[0].format(DAY),
    endTime: filters.range[1].add(1, 'day').format(DAY),
  };
}

function ResultTag({ log }: { log: SubscriptionLog }) {
  if (log.state === 'pending') return <Tag color="processing">{sm.pending}</Tag>;
  return log.errCode === 0 ? <Tag color="success">{sm.success}</Tag> : <Tag color="error">{sm.failure}</Tag>;
}

function LogTable({ isAdministrator }: { isAdministrator: boolean }) {
  const [params] = useSearchParams();
  const start = useMemo(() => initialFilters(params), [params]);
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>(start);
  const [paging, setPaging] = useState({ current: 1, size: SUBSCRIPTION_LOG_PAGE_SIZES[0] as number });
  const [detail, setDetail] = useState<SubscriptionLog | null>(null);
  const query = logQuery(filters, paging.current, paging.size);
  const queryClient = useQueryClient();
  const logs = useQuery({
    queryKey: subscriptionKeys.logs(query),
    queryFn: () => fetchSubscriptionLogs(query),
    placeholderData: keepPreviousData,
    // A send in progress (发送中) finishes within seconds: follow it.
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.state === 'pending') ? 3000 : false),
  });

  const apply = (values: Filters) => {
    setFilters({ ...values, range: values.range ?? start.range });
    setPaging((p) => ({ ...p, current: 1 }));
    // 查询 with unchanged filters still fetches anew (new sends arrive all the time).
    void queryClient.invalidateQueries({ queryKey: ['subscription', 'logs'] });
  };
  const preview = (log: SubscriptionLog) => window.open(subscriptionPreviewPath(log.dataType, log.dataId), '_blank');

  const columns: TableColumnsType<SubscriptionLog> = [
    { title: sm.colTitle, dataIndex: 'subTitle', ellipsis: true },
    { title: sm.colType, key: 'type', width: 100, render: (_, log) => SUBSCRIPTION_DATA_TYPE_LABELS[log.dataType] },
    { title: sm.colNotify, key: 'notify', width: 100, render: (_, log) => NOTIFY_TYPE_LABELS[log.notifyType] },
    { title: sm.colUser, key: 'user', width: 120, render: (_, log) => log.userName ?? '-' },
    { title: sm.colResult, key: 'result', width: 90, render: (_, log) => <ResultTag log={log} /> },
    { title: sm.colError, dataIndex: 'errMsg', ellipsis: true, render: (text: string | null) => text ?? '-' },
    { title: sm.colTime, key: 'time', width: 170, render: (_, log) => formatDateTime(log.createTime) },
    {
      title: sm.colActions,
      key: 'actions',
      width: 120,
      render: (_, log) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setDetail(log)}>
            {sm.detail}
          </Button>
          <Button type="link" size="small" onClick={() => preview(log)}>
            {sm.preview}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Form<Filters>
        form={form}
        layout="inline"
        initialValues={start}
        onFinish={apply}
        className="subscription-log-filters"
        style={{ rowGap: 12, marginBottom: 16 }}
      >
        <Form.Item label={sm.filterTitle} name="subTitle">
          <Input allowClear placeholder={sm.filterTitle} style={{ width: 180 }} data-testid="log-filter-title" />
        </Form.Item>
        <Form.Item label={sm.filterType} name="dataType">
          <Select
            allowClear
            placeholder={sm.all}
            style={{ width: 130 }}
            options={SUBSCRIPTION_DATA_TYPES.map((t) => ({ value: t, label: SUBSCRIPTION_DATA_TYPE_LABELS[t] }))}
          />
        </Form.Item>
        <Form.Item label={sm.filterResult} name="errCode">
          <Select
            allowClear
            placeholder={sm.all}
            style={{ width: 110 }}
            options={[
              { value: 0, label: sm.success },
              { value: 1, label: sm.failure },
            ]}
          />
        </Form.Item>
        {isAdministrator && (
          <Form.Item label={sm.filterUser} name="userId">
            <InputNumber min={1} style={{ width: 110 }} />
          </Form.Item>
        )}
        <Form.Item label={sm.filterDate} name="range">
          <DatePicker.RangePicker allowClear={false} data-testid="log-filter-range" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="log-search">
              {sm.search}
            </Button>
            <Button
              onClick={() => {
                form.setFieldsValue({ ...start, subTitle: '', dataType: undefined, errCode: undefined, userId: null });
                form.submit();
              }}
            >
              {sm.reset}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<SubscriptionLog>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={logs.data?.records ?? []}
        loading={logs.isFetching}
        locale={{ emptyText: sm.empty }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: logs.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: SUBSCRIPTION_LOG_PAGE_SIZES.map(String),
          showTotal: sm.total,
          onChange: (current, size) => setPaging({ current, size }),
        }}
      />
      <Modal open={detail !== null} title={sm.detailTitle} footer={null} onCancel={() => setDetail(null)} width={600}>
        {detail && (
          <Descriptions column={1} bordered size="small" data-testid="log-detail">
            <Descriptions.Item label={sm.colTitle}>{detail.subTitle}</Descriptions.Item>
            <Descriptions.Item label={sm.colType}>{SUBSCRIPTION_DATA_TYPE_LABELS[detail.dataType]}</Descriptions.Item>
            <Descriptions.Item label={sm.colNotify}>{NOTIFY_TYPE_LABELS[detail.notifyType]}</Descriptions.Item>
            <Descriptions.Item label={sm.colUser}>{detail.userName ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={sm.colResult}>
              <ResultTag log={detail} />
            </Descriptions.Item>
            <Descriptions.Item label={sm.colError}>{detail.errMsg ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={sm.content}>{detail.content ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={sm.slot}>{formatDateTimeLabelled(detail.slot)}</Descriptions.Item>
            <Descriptions.Item label={sm.colTime}>{formatDateTimeLabelled(detail.createTime)}</Descriptions.Item>
          </Descriptions>
        )}
      </Modal>
    </>
  );
}

/** 订阅日志 (/newbi/mine/subscription-log, spec 1 §2.9) with a 我的订阅 tab. */
export function SubscriptionLogPage() {
  const isAdministrator = useUserInfo().data?.isAdministrator ?? false;
  return (
    <PageContainer title={sm.logTitle} description={sm.logDesc}>
      <Card>
        <Tabs
          items={[
            { key: 'logs', label: sm.tabLogs, children: <LogTable isAdministrator={isAdministrator} /> },
            { key: 'mine', label: sm.tabMine, children: <SubscriptionList isAdministrator={isAdministrator} /> },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
