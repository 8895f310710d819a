import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Result, Tabs } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { GRANT_KINDS, type GrantKind } from '@shutu/contracts';
import { t } from '../../app/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { grantTabItems } from './grant-tabs.tsx';
import './perm.css';

const LIST_PATH = '/system/authGroup';

/** The group named by `?id=&name=`; null when the id is not a positive integer. */
export function groupFromSearch(params: URLSearchParams): { id: number; name: string } | null {
  const id = Number(params.get('id'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return { id, name: params.get('name') ?? '' };
}

/** 权限设置 (spec 2 §2 "Permission-group settings"): one tab per grantable resource. */
export function AuthGroupSettingPage() {
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
          items={grantTabItems({ groupId: group.id, groupName: group.name })}
        />
      </Card>
    </PageContainer>
  );
}
