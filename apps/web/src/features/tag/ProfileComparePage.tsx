import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Empty, Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { API, PROFILE_COMPARE_MAX, type AudienceListItem, type Page } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { http } from '../../shared/api.ts';
import { errorText } from '../../shared/notify.ts';
import { fetchCompare, tagKeys } from './api.ts';
import { DiffView } from './DiffView.tsx';
import { tg } from './messages.ts';
import { ProfileBlock } from './ProfileBlock.tsx';
import './tag.css';

const parseIds = (s: string | null) => [
  ...new Set(
    (s ?? '')
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
  ),
];

/** 用户画像对比 (spec 3 §2): ?type=&id=1,2,3 — a multi-select of audiences, one statistics block each, and a difference view. */
export function ProfileComparePage() {
  const [search, setSearch] = useSearchParams();
  const type = search.get('type') ?? undefined;
  const ids = parseIds(search.get('id'));
  const [diffA, diffB] = [Number(search.get('diffA')) || undefined, Number(search.get('diffB')) || undefined];
  const audiences = useQuery({
    queryKey: ['audience', 'list', 'compare', type],
    // Only the kinds the page was opened for (dataset, tag or import); computed ones can be compared.
    queryFn: () => http.get<Page<AudienceListItem>>(API.audience.list, { current: 1, size: 10000, kind: type && type !== 'all' ? type : undefined }),
  });
  const compare = useQuery({
    queryKey: [...tagKeys.compare(ids), diffA, diffB],
    queryFn: () => fetchCompare(ids, type, diffA, diffB),
    enabled: ids.length > 0,
    retry: false,
  });
  const set = (next: Record<string, string | undefined>) => {
    const params = new URLSearchParams(search);
    for (const [k, v] of Object.entries(next))
      if (v) params.set(k, v);
      else params.delete(k);
    setSearch(params, { replace: true });
  };
  // Opened without ids: the audiences marked 画像对比默认展示 (defaultShow) are compared, once.
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || !audiences.data) return;
    preselected.current = true;
    if (search.has('id')) return;
    const shown = audiences.data.records.filter((a) => a.defaultShow === 1 && a.status === 'done').slice(0, PROFILE_COMPARE_MAX);
    if (shown.length > 0) set({ id: shown.map((a) => a.id).join(',') });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the list first arrives
  }, [audiences.data]);
  const options = (audiences.data?.records ?? []).map((a) => ({ value: a.id, label: a.groupName, disabled: a.status !== 'done' }));
  return (
    <PageContainer title={tg.pageCompare} description={tg.pageCompareDesc}>
      <Select
        mode="multiple"
        allowClear
        placeholder={tg.chooseGroups}
        value={ids}
        options={options}
        optionFilterProp="label"
        onChange={(v: number[]) => set({ id: v.join(',') || undefined, diffA: undefined, diffB: undefined })}
        style={{ width: '100%', marginBottom: 16 }}
        notFoundContent={<Empty description={tg.noGroups} />}
        data-testid="profile-select"
      />
      {compare.isError && <Alert type="warning" showIcon title={errorText(compare.error)} />}
      <Spin spinning={compare.isFetching}>
        {compare.data && (
          <>
            <div className="profile-blocks">
              {compare.data.groups.map((g) => (
                <ProfileBlock key={g.id} stats={g} />
              ))}
            </div>
            {compare.data.diff && (
              <DiffView groups={compare.data.groups} diff={compare.data.diff} onPick={(a, b) => set({ diffA: String(a), diffB: String(b) })} />
            )}
          </>
        )}
      </Spin>
    </PageContainer>
  );
}
