import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { t } from '../../shared/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileInfoForm } from './ProfileInfoForm.tsx';

/** Spec 1 §2.2: tab 0 personal info, tab 1 password; `?tab=1` opens the password tab. */
export function ProfilePage() {
  const { data: user } = useUserInfo();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? '1' : '0';
  if (!user) return null;
  return (
    <PageContainer title={t.pageProfile} description={t.profileDesc}>
      <Card className="profile-card">
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams(key === '1' ? { tab: '1' } : {}, { replace: true })}
          items={[
            { key: '0', label: t.profileTabInfo, children: <ProfileInfoForm user={user} /> },
            { key: '1', label: t.profileTabPassword, children: <PasswordForm /> },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
