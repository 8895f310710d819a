import { Checkbox, Typography } from 'antd';
import type { AppGrantable } from '@shutu/contracts';
import { GrantChecklist, type GrantTabProps } from '../perm/grant-scaffold.tsx';
import { appKeys, fetchGrantableApps, fetchGroupAppAuth, saveGroupAppAuth } from './api.ts';
import { MenuIcon } from './menu-icons.tsx';
import { am } from './messages.ts';
import './app.css';

type Item = AppGrantable & { id: number };

/**
 * The 应用 tab of 权限设置 (spec 2 §7 authListByGroup / authSaveByGroup / appList): the published
 * apps, the group's grants ticked; 保存 replaces the group's app grants (appIdList).
 */
export function AppGrantTab({ groupId }: GrantTabProps) {
  return (
    <GrantChecklist<Item>
      title={am.tabApp}
      count={am.grantTitle}
      texts={{ search: am.grantSearch, selectAll: am.selectAll, clear: am.clear, save: am.save, saved: am.saved, empty: am.grantNone }}
      testIds={{ card: 'app-grant', count: 'app-grant-count' }}
      hint={<Typography.Paragraph type="secondary">{am.grantHint}</Typography.Paragraph>}
      items={{ queryKey: appKeys.grantable, queryFn: async () => (await fetchGrantableApps()).map((a) => ({ ...a, id: a.appId })) }}
      granted={{ queryKey: appKeys.groupAuth(groupId), queryFn: () => fetchGroupAppAuth(groupId) }}
      matches={(a, keyword) => a.appName.toLowerCase().includes(keyword)}
      save={(ids) => saveGroupAppAuth(groupId, ids)}
      invalidate={appKeys.groupAuthAll}
      listClassName="app-grant-list"
      renderItem={(a, checked, onToggle) => (
        <div className={`app-grant-item${checked ? ' is-checked' : ''}`} data-testid="grant-app" data-name={a.appName} onClick={() => onToggle(!checked)}>
          <Checkbox checked={checked} onClick={(e) => e.stopPropagation()} onChange={(e) => onToggle(e.target.checked)} aria-label={a.appName} />
          <MenuIcon name={null} />
          <Typography.Text ellipsis={{ tooltip: a.appName }}>{a.appName}</Typography.Text>
        </div>
      )}
    />
  );
}
