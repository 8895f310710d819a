import type { App, AppContext } from '../context.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerDataSourceRoutes } from './datasource/routes.ts';
import { registerDictRoutes } from './dict/routes.ts';
import { registerOrgRoutes } from './org/routes.ts';
import { registerProfileRoutes } from './profile/routes.ts';
import { registerSystemRoutes } from './system/routes.ts';
import { registerFileTableRoutes } from './filetable/routes.ts';
import { registerSqlViewRoutes } from './sqlview/routes.ts';
import { registerQueryRoutes } from './query/routes.ts';
import { registerPermRoutes } from './perm/routes.ts';
import { registerDatasetRoutes } from './dataset/routes.ts';
import { registerReadRoutes } from './read/routes.ts';
import { registerBoardRoutes } from './board/routes.ts';
import { registerExportRoutes } from './export/routes.ts';
import { registerPptRoutes } from './ppt/routes.ts';
import { registerPptPdfRoutes } from './ppt/pdf-routes.ts';
import { registerSubscriptionRoutes } from './subscription/routes.ts';
import { registerShareRoutes } from './share/routes.ts';
import { registerHomeRoutes } from './home/index.ts';
import { registerDataApiRoutes } from './dataapi/index.ts';
import { registerOrderExportRoutes } from './orderexport/index.ts';
import { registerMarketRoutes } from './market/index.ts';
import { registerAlertRoutes } from './alert/index.ts';
import { registerHeatmapRoutes } from './heatmap/index.ts';
import { registerWorkflowRoutes } from './workflow/index.ts';
import { registerAiRoutes } from './ai/index.ts';
import { registerAudienceRoutes } from './audience/index.ts';
import { registerCdpRoutes } from './cdp/index.ts';
import { registerAppRoutes } from './app/index.ts';
import { registerTagRoutes } from './tag/index.ts';
import { registerProfileCompareRoutes } from './audience-profile/index.ts';

export type RegisterModule = (app: App, ctx: AppContext) => Promise<void> | void;

/** Every domain module, registered in this order. */
export const modules: RegisterModule[] = [
  registerAuthRoutes,
  registerSystemRoutes,
  registerProfileRoutes,
  registerOrgRoutes,
  registerDictRoutes,
  registerDataSourceRoutes,
  registerFileTableRoutes,
  registerSqlViewRoutes,
  registerQueryRoutes,
  registerPermRoutes,
  registerDatasetRoutes,
  registerReadRoutes,
  registerBoardRoutes,
  registerExportRoutes,
  registerPptRoutes,
  registerPptPdfRoutes,
  registerSubscriptionRoutes,
  registerShareRoutes,
  registerHomeRoutes,
  registerDataApiRoutes,
  registerAlertRoutes,
  registerOrderExportRoutes,
  registerMarketRoutes,
  registerHeatmapRoutes,
  registerWorkflowRoutes,
  registerAiRoutes,
  registerAudienceRoutes,
  registerCdpRoutes,
  registerAppRoutes,
  registerTagRoutes,
  registerProfileCompareRoutes,
];
