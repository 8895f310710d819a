import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, DatePicker, Descriptions, Result, Spin } from 'antd';
import { ExpandAltOutlined, ShrinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { shiftMonth, type Tag } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { BarWidget } from '../../shared/charts/BarLineWidget.tsx';
import { fetchCount, fetchMonths, fetchRatioSteppingBack, fetchTag, storedTagId, storeTagId, tagKeys } from './api.ts';
import { fill, tg } from './messages.ts';
import { TAG_LIBRARY_PATH } from './paths.ts';
import './tag.css';

const MONTH = 'YYYY-MM';
const F = tg.fields;
const month = (d: Dayjs) => d.format(MONTH);
const RATIO_ROWS = [{ name: 'tagname', title: F.tagName }];
const COUNT_ROWS = [{ name: 'datadate', title: tg.month }];
const USERS = [{ name: 'num', title: tg.users }];

function InfoCard({ tag }: { tag: Tag }) {
  return (
    <Card title={tag.tagName} size="small" data-testid="tag-info">
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={F.tagId}>{tag.tagId}</Descriptions.Item>
        <Descriptions.Item label={F.level1Name}>{tag.level1Name}</Descriptions.Item>
        <Descriptions.Item label={F.level2Name}>{tag.level2Name}</Descriptions.Item>
        <Descriptions.Item label={F.userType}>{tag.userType}</Descriptions.Item>
        <Descriptions.Item label={F.tagType}>{tg.tagTypes[tag.tagType as 1 | 2] ?? tag.tagType}</Descriptions.Item>
        <Descriptions.Item label={F.developType}>{tg.developTypes[tag.developType as 1 | 2] ?? tag.developType}</Descriptions.Item>
        <Descriptions.Item label={F.exclusion}>{tg.exclusion[tag.exclusion as 1 | 2] ?? tag.exclusion}</Descriptions.Item>
        <Descriptions.Item label={F.isOnline}>{tg.online[tag.isOnline as 1 | 2] ?? tag.isOnline}</Descriptions.Item>
        <Descriptions.Item label={F.tagDesc}>{tag.tagDesc}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/**
 * The ratio panel (spec 1 §2.3, §4): users per tag of the group in the chosen month; a month
 * without data steps back one month and reloads; the panel expands; a bar opens its tag.
 */
function RatioPanel({ tag, initialMonth, onPick }: { tag: Tag; initialMonth: string; onPick: (tagId: number) => void }) {
  const [asked, setAsked] = useState(initialMonth);
  const [expanded, setExpanded] = useState(false);
  const ratio = useQuery({ queryKey: tagKeys.ratio(tag.tagId, asked), queryFn: () => fetchRatioSteppingBack(tag.tagId, asked) });
  const chosen = ratio.data?.month ?? asked;
  const pick = (d: Dayjs | null) => d && setAsked(month(d));
  return (
    <Card
      size="small"
      className={expanded ? 'tag-panel tag-panel-expanded' : 'tag-panel'}
      title={fill(tg.ratioTitle, { group: tag.level2Name })}
      extra={
        <span className="tag-panel-extra">
          <DatePicker picker="month" format={MONTH} allowClear={false} value={dayjs(chosen, MONTH)} onChange={pick} data-testid="tag-ratio-month" />
          <Button
            size="small"
            icon={expanded ? <ShrinkOutlined /> : <ExpandAltOutlined />}
            onClick={() => setExpanded(!expanded)}
            data-testid="tag-ratio-expand"
          >
            {expanded ? tg.collapse : tg.expand}
          </Button>
        </span>
      }
    >
      {asked !== chosen && ratio.data && ratio.data.rows.length > 0 && (
        <Alert type="info" showIcon title={fill(tg.stepBack, { month: asked, prev: chosen })} className="tag-step-alert" />
      )}
      <Spin spinning={ratio.isFetching}>
        <BarWidget
          key={`${tag.tagId}:${chosen}:${expanded}`}
          chartData={ratio.data?.rows ?? []}
          rowParamList={RATIO_ROWS}
          indexParamList={USERS}
          onPointClick={(row) => onPick(Number(row.tagid))}
          className="tag-ratio-chart"
        />
      </Spin>
    </Card>
  );
}

function CountPanel({ tag, lastMonth }: { tag: Tag; lastMonth: string }) {
  const [range, setRange] = useState<[string, string]>([shiftMonth(lastMonth, 11), lastMonth]);
  const count = useQuery({ queryKey: tagKeys.count(tag.tagId, ...range), queryFn: () => fetchCount(tag.tagId, ...range) });
  return (
    <Card
      size="small"
      className="tag-panel"
      title={tg.countTitle}
      extra={
        <DatePicker.RangePicker
          picker="month"
          format={MONTH}
          allowClear={false}
          value={[dayjs(range[0], MONTH), dayjs(range[1], MONTH)]}
          onChange={(v) => v?.[0] && v[1] && setRange([month(v[0]), month(v[1])])}
          data-testid="tag-count-range"
        />
      }
    >
      <Spin spinning={count.isFetching}>
        <BarWidget chartData={count.data ?? []} rowParamList={COUNT_ROWS} indexParamList={USERS} className="tag-count-chart" />
      </Spin>
    </Card>
  );
}

/** 标签详情 (spec 1 §2.3): the tag of local storage, its info card, the ratio and the monthly trend. */
export function TagDetailPage() {
  const [tagId, setTagId] = useState(storedTagId);
  const tag = useQuery({ queryKey: tagKeys.detail(tagId ?? 0), queryFn: () => fetchTag(tagId!), enabled: tagId !== null });
  const months = useQuery({ queryKey: tagKeys.months, queryFn: fetchMonths });
  const pick = (id: number) => {
    storeTagId(id);
    setTagId(id);
  };
  if (tagId === null)
    return (
      <PageContainer title={tg.pageDetail}>
        <Result status="info" title={tg.noTag} extra={<Link to={TAG_LIBRARY_PATH}>{tg.toLibrary}</Link>} />
      </PageContainer>
    );
  const last = months.data?.[0] ?? month(dayjs().subtract(1, 'month'));
  return (
    <PageContainer title={tg.pageDetail} extra={<Link to={TAG_LIBRARY_PATH}>{tg.pageLibrary}</Link>}>
      {tag.isError && <Result status="warning" title={tg.tagNotFound} />}
      {tag.data && months.data && (
        <div className="tag-detail" data-testid="tag-detail" data-tag-id={tag.data.tagId}>
          <InfoCard tag={tag.data} />
          <div className="tag-detail-charts">
            <RatioPanel key={`ratio:${tag.data.level2Name}`} tag={tag.data} initialMonth={last} onPick={pick} />
            <CountPanel key={`count:${tag.data.tagId}`} tag={tag.data} lastMonth={last} />
          </div>
        </div>
      )}
    </PageContainer>
  );
}
