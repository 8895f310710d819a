import type { ComponentType } from 'react';
import { Empty } from 'antd';
import { GRANT_KINDS, GRANT_KIND_LABELS, type GrantKind } from '@shutu/contracts';
import { t } from '../../app/messages.ts';
import { DatasetGrantTab } from './DatasetGrantTab.tsx';
import { DataSourceGrantTab } from './DataSourceGrantTab.tsx';
import { ReportGrantTab, VisualGrantTab } from '../board/BoardGrantTab.tsx';
import { LinkGrantTab } from '../share/LinkGrantTab.tsx';
import { PptGrantTab } from '../ppt/PptGrantTab.tsx';

/** What every grant tab receives: the group it grants to. */
export interface GrantTabProps {
  groupId: number;
  groupName: string;
}

/**
 * The grant tabs of /system/authGroupSetting, by kind. A resource that goes live adds its
 * tab here; kinds without one show a placeholder saying the resource is not there yet.
 */
export const GRANT_TABS: Partial<Record<GrantKind, ComponentType<GrantTabProps>>> = {
  datasource: DataSourceGrantTab,
  cube: DatasetGrantTab,
  ppt: PptGrantTab,
  visual: VisualGrantTab,
  report: ReportGrantTab,
  link: LinkGrantTab,
};

/** A kind whose resource does not exist yet. */
export function PendingGrantTab({ kind }: { kind: GrantKind }) {
  const pending: Partial<Record<GrantKind, string>> = t.grantPending;
  return <Empty className="perm-pending" data-testid={`grant-pending-${kind}`} image={Empty.PRESENTED_IMAGE_SIMPLE} description={pending[kind]} />;
}

/** The tabs in GRANT_KINDS order, labelled by GRANT_KIND_LABELS. */
export function grantTabItems(props: GrantTabProps) {
  return GRANT_KINDS.map((kind) => {
    const Tab = GRANT_TABS[kind];
    return {
      key: kind,
      label: GRANT_KIND_LABELS[kind],
      children: Tab ? <Tab {...props} /> : <PendingGrantTab kind={kind} />,
    };
  });
}
