import type { GrantTabs } from '../features/perm/grant-scaffold.tsx';
import { DatasetGrantTab } from '../features/dataset/DatasetGrantTab.tsx';
import { DataSourceGrantTab } from '../features/perm/DataSourceGrantTab.tsx';
import { ReportGrantTab, VisualGrantTab } from '../features/board/BoardGrantTab.tsx';
import { LinkGrantTab } from '../features/share/LinkGrantTab.tsx';
import { PptGrantTab } from '../features/ppt/PptGrantTab.tsx';
import { AppGrantTab } from '../features/app/AppGrantTab.tsx';

/**
 * The grant tabs of /system/authGroupSetting, by kind, composed here in the shell so that the
 * permission feature never imports the resources it grants. A resource that goes live adds its
 * tab here; kinds without one show a placeholder saying the resource is not there yet.
 */
export const GRANT_TABS: GrantTabs = {
  datasource: DataSourceGrantTab,
  cube: DatasetGrantTab,
  ppt: PptGrantTab,
  visual: VisualGrantTab,
  report: ReportGrantTab,
  app: AppGrantTab,
  link: LinkGrantTab,
};
