import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.ts';
import * as datasource from './0002_datasource.ts';
import * as filetables from './0003_filetables.ts';
import * as perm from './0004_perm.ts';
import * as dataset from './0005_dataset.ts';
import * as board from './0006_board.ts';
import * as exportTask from './0007_export.ts';
import * as ppt from './0008_ppt.ts';
import * as subscription from './0009_subscription.ts';
import * as share from './0010_share.ts';
import * as pptPdf from './0011_ppt_pdf.ts';
import * as mustChangePassword from './0012_must_change_password.ts';
import * as jobRuns from './0013_job_runs.ts';
import * as filetableStaging from './0014_filetable_staging.ts';
import * as recentVisits from './0015_recent_visits.ts';
import * as exportFormat from './0017_export_format.ts';
import * as dataApi from './0018_dataapi.ts';
import * as dataApiDict from './0019_dataapi_dict.ts';
import * as heatmapTrack from './0020_heatmap_track.ts';
import * as alert from './0022_alert.ts';
import * as orderExport from './0021_order_export.ts';
import * as workflow from './0027_workflow.ts';
import * as orderExportResume from './0025_order_export_resume.ts';
import * as ai from './0029_ai.ts';
import * as datasourceWrite from './0028_datasource_write.ts';
import * as trackSites from './0026_track_sites.ts';
import * as workflowNotice from './0030_workflow_notice.ts';
import * as alertDepartments from './0031_alert_departments.ts';
import * as audience from './0034_audience.ts';
import * as cdp from './0033_cdp.ts';
import * as apps from './0032_app.ts';
import * as cacheBus from './0037_cache_bus.ts';
import * as orderExportSlices from './0038_order_export_slices.ts';
import * as rateWindow from './0040_rate_window.ts';
import * as audienceMemberGc from './0045_audience_member_gc.ts';

/** Versioned migrations, applied in key order at start. Never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_datasource': datasource,
  '0003_filetables': filetables,
  '0004_perm': perm,
  '0005_dataset': dataset,
  '0006_board': board,
  '0007_export': exportTask,
  '0008_ppt': ppt,
  '0009_subscription': subscription,
  '0010_share': share,
  '0011_ppt_pdf': pptPdf,
  '0012_must_change_password': mustChangePassword,
  '0013_job_runs': jobRuns,
  '0014_filetable_staging': filetableStaging,
  '0015_recent_visits': recentVisits,
  '0017_export_format': exportFormat,
  '0018_dataapi': dataApi,
  '0019_dataapi_dict': dataApiDict,
  '0020_heatmap_track': heatmapTrack,
  '0022_alert': alert,
  '0021_order_export': orderExport,
  '0027_workflow': workflow,
  '0025_order_export_resume': orderExportResume,
  '0026_track_sites': trackSites,
  '0029_ai': ai,
  '0028_datasource_write': datasourceWrite,
  '0030_workflow_notice': workflowNotice,
  '0031_alert_departments': alertDepartments,
  '0034_audience': audience,
  '0033_cdp': cdp,
  '0032_app': apps,
  '0037_cache_bus': cacheBus,
  '0038_order_export_slices': orderExportSlices,
  '0040_rate_window': rateWindow,
  '0045_audience_member_gc': audienceMemberGc,
};
