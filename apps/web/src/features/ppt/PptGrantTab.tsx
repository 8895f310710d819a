import { Checkbox, Tag, Typography } from 'antd';
import type { Ppt } from '@shutu/contracts';
import { GrantChecklist, type GrantTabProps } from '../perm/grant-scaffold.tsx';
import { fetchAllPpts, fetchGroupPptAuth, pptKeys, saveGroupPptAuth } from './api.ts';
import { pm, pt } from './messages.ts';
import './ppt.css';

/**
 * The 幻灯片 tab of 权限设置 (/system/authGroupSetting): every slideshow, the group's grants
 * ticked; 全选 (the filtered ones), 清空, 保存 (replaces the group's slideshow grants).
 */
export function PptGrantTab({ groupId }: GrantTabProps) {
  return (
    <GrantChecklist<Ppt>
      title={pt.tabPpt}
      count={pt.grantTitle}
      texts={{ search: pt.grantSearch, selectAll: pt.selectAll, clear: pt.clear, save: pt.save, saved: pm.saved, empty: pt.grantNone }}
      testIds={{ card: 'ppt-grant', count: 'ppt-grant-count' }}
      items={{ queryKey: [...pptKeys.listAll, 'grant'], queryFn: fetchAllPpts }}
      granted={{ queryKey: pptKeys.groupAuth(groupId), queryFn: () => fetchGroupPptAuth(groupId) }}
      matches={(p, keyword) => p.ppName.toLowerCase().includes(keyword)}
      save={(ids) => saveGroupPptAuth(groupId, ids)}
      invalidate={pptKeys.groupAuthAll}
      listClassName="ppt-grant-list"
      renderItem={(p, checked, onToggle) => (
        <div className={`ppt-grant-item${checked ? ' is-checked' : ''}`} data-testid="grant-ppt" data-name={p.ppName} onClick={() => onToggle(!checked)}>
          <Checkbox checked={checked} onClick={(e) => e.stopPropagation()} onChange={(e) => onToggle(e.target.checked)} aria-label={p.ppName} />
          <Typography.Text ellipsis={{ tooltip: p.ppName }}>{p.ppName}</Typography.Text>
          {p.publicStatus === 1 && <Tag color="green">{pt.public}</Tag>}
        </div>
      )}
    />
  );
}
