import { Card, Tabs } from 'antd';
import { PageContainer } from '../../../shared/PageContainer.tsx';
import { am } from '../messages.ts';
import { AccessKeysTab } from './AccessKeysTab.tsx';
import { AllowListTab } from './AllowListTab.tsx';
import { CallLogTab } from './CallLogTab.tsx';

/** 数据接口管理 (/system/dataapi, administrators): access keys, the call log with p95, the outgoing-host allow-list. */
export function DataApiAdminPage() {
  return (
    <PageContainer title={am.pageAdmin} description={am.pageAdminDesc}>
      <Card>
        <Tabs
          items={[
            { key: 'keys', label: am.tabKeys, children: <AccessKeysTab /> },
            { key: 'logs', label: am.tabLogs, children: <CallLogTab /> },
            { key: 'hosts', label: am.tabHosts, children: <AllowListTab /> },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
