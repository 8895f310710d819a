import { Alert, Checkbox, Tag } from 'antd';
import type { ShareLink } from '@shutu/contracts';
import { GrantChecklist, type GrantTabProps } from '../perm/grant-scaffold.tsx';
import { fetchAccountLinks, fetchShareAuth, formatDateTime, saveShareAuth, shareKeys } from './api.ts';
import { sm } from './messages.ts';
import './share.css';

function LinkItem({ link, checked, onToggle }: { link: ShareLink; checked: boolean; onToggle: (on: boolean) => void }) {
  const meta = [
    sm.dataTypeLabels[link.dataType],
    link.purpose,
    link.createUserName,
    link.expireTime ? `${sm.expiry} ${formatDateTime(link.expireTime)}` : sm.forever,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div
      className={`share-grant-item${checked ? ' is-checked' : ''}`}
      data-testid="grant-link"
      data-title={link.visualDataTitle}
      onClick={() => onToggle(!checked)}
    >
      <Checkbox checked={checked} onClick={(e) => e.stopPropagation()} onChange={(e) => onToggle(e.target.checked)} aria-label={link.visualDataTitle} />
      <div className="share-grant-item-body">
        <span className="share-grant-item-title" title={link.visualDataTitle}>
          {link.visualDataTitle} {!link.enabled && <Tag>{sm.statusOff}</Tag>}
          {link.enabled && link.expired && <Tag color="orange">{sm.statusExpired}</Tag>}
        </span>
        <span className="share-grant-item-meta" title={meta}>
          {meta}
        </span>
      </div>
    </div>
  );
}

/**
 * 第三方链接 (spec 1 §2.6, the share-authorisation panel of a permission group): the
 * account-matching share links with the group's ticked; filter, 全选, 清空, 保存 (the group's
 * links become exactly the ticked ones). A link granted to groups opens only for their members.
 */
export function LinkGrantTab({ groupId, groupName }: GrantTabProps) {
  return (
    <GrantChecklist<ShareLink>
      title={sm.grantTitle(groupName)}
      count={sm.grantCount}
      texts={{ search: sm.grantSearch, selectAll: sm.selectAll, clear: sm.clear, save: sm.save, saved: sm.saved, empty: sm.grantEmpty }}
      testIds={{ card: 'link-grant', count: 'grant-link-count', list: 'grant-link-list', selectAll: 'grant-link-all', save: 'grant-link-save' }}
      hint={<Alert className="share-grant-hint" type="info" showIcon title={sm.grantHint} />}
      items={{ queryKey: shareKeys.accountLinks, queryFn: fetchAccountLinks }}
      granted={{ queryKey: shareKeys.auth(groupId), queryFn: () => fetchShareAuth(groupId) }}
      matches={(l, keyword) => l.visualDataTitle.toLowerCase().includes(keyword) || l.purpose.toLowerCase().includes(keyword)}
      save={(ids) => saveShareAuth({ dataPermId: groupId, linkIdList: ids })}
      invalidate={shareKeys.auth(groupId)}
      listClassName="share-grant-list"
      renderItem={(l, checked, onToggle) => <LinkItem link={l} checked={checked} onToggle={onToggle} />}
    />
  );
}
