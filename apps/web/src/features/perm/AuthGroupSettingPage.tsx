import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Empty, Result, Tabs } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { GRANT_KINDS, GRANT_KIND_LABELS, type GrantKind } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import type { GrantTabProps, GrantTabs } from './grant-scaffold.tsx';
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
 * come from the app shell, which composes them from the resource features.
 */
export function AuthGroupSettingPage({ tabs }: { tabs: GrantTabs }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const group = groupFromSearch(params);
  const [active, setActive] = useState<GrantKind>(GRANT_KINDS[0]);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(LIST_PATH)}>
      {t.permBackToList}
    </Button>
  );

  if (!group) {
    return (
      <PageContainer title={t.pageAuthGroupSetting} extra={back}>
        <Card>
          <Result status="warning" title={t.permSettingMissing} />
        </Card>
      </PageContainer>
    );
  }

  return (
    <PageContainer title={t.permSettingTitle(group.name)} description={t.permSettingDesc} extra={back}>
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
