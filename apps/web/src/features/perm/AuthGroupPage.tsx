import { t } from '../../shared/messages.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { AuthGroupPanel } from './AuthGroupPanel.tsx';

/** 权限组管理 (spec 2 §2 "Permission-group list"): types, groups and their members. */
export function AuthGroupPage() {
  return (
    <PageContainer title={t.pageAuthGroup} description={t.authGroupDesc}>
      <AuthGroupPanel mode="manage" />
    </PageContainer>
  );
}
