import type { App, AppContext } from '../../context.ts';
import { registerTreeRoutes } from './tree-routes.ts';
import { registerUserRoutes } from './users-routes.ts';

/** Organisation: users, departments, roles and the permission catalogue. */
export function registerOrgRoutes(app: App, ctx: AppContext): void {
  registerUserRoutes(app, ctx);
  registerTreeRoutes(app, ctx);
}
