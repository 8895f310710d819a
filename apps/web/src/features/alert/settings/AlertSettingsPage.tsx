import { Link } from 'react-router';
import { Button, Tabs } from 'antd';
import { PageContainer } from '../../../shared/PageContainer.tsx';
import { alm } from '../messages.ts';
import { PushSettingsTab } from './PushSettingsTab.tsx';
import { SmsProvidersTab } from './SmsProvidersTab.tsx';
import { SmsTemplatesTab } from './SmsTemplatesTab.tsx';

/** 预警设置 (/newbi/warning/settings, administrators): SMS templates, the three SMS providers, the third-party push endpoint. */
export function AlertSettingsPage() {
  return (
    <PageContainer
      title={alm.settings}
      extra={
        <Link to="/newbi/warning">
          <Button>{alm.back}</Button>
        </Link>
      }
    >
      <Tabs
        items={[
          { key: 'templates', label: alm.smsTemplates, children: <SmsTemplatesTab /> },
          { key: 'providers', label: alm.smsProviders, children: <SmsProvidersTab /> },
          { key: 'push', label: alm.pushSettings, children: <PushSettingsTab /> },
        ]}
      />
    </PageContainer>
  );
}
