import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Result, Spin, Tabs } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { GRANT_KINDS, GRANT_KIND_LABELS, type GrantKind } from '@shutu/contracts';
import { ApiError } from '../../shared/api.ts';
import { t } from '../../shared/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import type { GrantTabProps, GrantTabs } from './grant-scaffold.tsx';
import { fetchPermGroup, permKeys } from './api.ts';
import './perm.css';

const LIST_PATH = '/system/authGroup';

/** The group named by `?id=&name=`; null when the id is not a positive integer. */
export function groupFromSearch(params: URLSearchParams): { id: number; name: string } | null {
  const id = Number(params.get('id'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return { id, name: params.get('name') ?? '' };
}

/** A kind whose resource does not exist yet. */
export function PendingGrantTab({ kind }: { kind: GrantKind }) {
  const pending: Partial<Record<GrantKind, string>> = t.grantPending;
  return <Empty className="perm-pending" data-testid={`grant-pending-${kind}`} image={Empty.PRESENTED_IMAGE_SIMPLE} description={pending[kind]} />;
}

/** The tabs in GRANT_KINDS order, labelled by GRANT_KIND_LABELS. */
export function grantTabItems(tabs: GrantTabs, props: GrantTabProps) {
  return GRANT_KINDS.map((kind) => {
    const Tab = tabs[kind];
    return {
      key: kind,
      label: GRANT_KIND_LABELS[kind],
      children: Tab ? <Tab {...props} /> : <PendingGrantTab kind={kind} />,
    };
  });
}

/**
 * 权限设置 (spec 2 §2 "Permission-group settings"): one tab per grantable resource. The tabs
 * come from the app shell, which composes them from the resource features, and so does the
 * product's not-found page (`notFound`), shown for an id that is not a group's: the group is
 * looked up first, and no tab is rendered (nor asks for anything) until it is found.
 */
export function AuthGroupSettingPage({ tabs, notFound }: { tabs: GrantTabs; notFound: ReactNode }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const group = groupFromSearch(params);
  const [active, setActive] = useState<GrantKind>(GRANT_KINDS[0]);
  const found = useQuery({
    queryKey: permKeys.group(group?.id ?? 0),
    queryFn: () => fetchPermGroup(group!.id),
    enabled: group !== null,
    retry: false,
    // A missing group is shown as the not-found page, not toasted.
    meta: { silent: true },
  });
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(LIST_PATH)}>
      {t.permBackToList}
    </Button>
  );

  // An id that is there but is no group's id: a dead address, like an unknown path.
  if (!group && params.has('id')) return <>{notFound}</>;
  if (!group) {
    return (
      <PageContainer title={t.pageAuthGroupSetting} extra={back}>
        <Card>
          <Result status="warning" title={t.permSettingMissing} />
        </Card>
      </PageContainer>
    );
  }

  if (found.error) {
    if (found.error instanceof ApiError && found.error.status === 404) return <>{notFound}</>;
    return (
      <PageContainer title={t.pageAuthGroupSetting} extra={back}>
        <Card>
          <Result status="error" title={found.error.message} />
        </Card>
      </PageContainer>
    );
  }
  if (!found.data) {
    return (
      <PageContainer title={t.permSettingTitle(group.name)} description={t.permSettingDesc} extra={back}>
        <Card>
          <Spin data-testid="grant-group-loading" />
        </Card>
      </PageContainer>
    );
  }

  return (
    <PageContainer title={t.permSettingTitle(found.data.permName || group.name)} description={t.permSettingDesc} extra={back}>
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          key={group.id}
          data-testid="grant-tabs"
          activeKey={active}
          onChange={(key) => setActive(key as GrantKind)}
          destroyOnHidden
          items={grantTabItems(tabs, { groupId: group.id, groupName: group.name })}
        />
      </Card>
    </PageContainer>
  );
}
