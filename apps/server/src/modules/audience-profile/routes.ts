import { API, envelopeSchema, profileCompareQuerySchema, profileCompareSchema } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { compareProfiles } from './service.ts';

/** User-profile comparison (spec 3 §7): any signed-in user, over the audiences they may see. */
export function registerProfileCompareRoutes(app: App, ctx: AppContext): void {
  app.get(
    API.tag.compare,
    {
      config: { access: 'user' },
      schema: {
        tags: ['tag'],
        summary: '用户画像对比：每个人群的规模、省份与地市分布、产品与渠道偏好、流量使用水平、热门标签，以及两个人群的差异',
        querystring: profileCompareQuerySchema,
        response: { 200: envelopeSchema(profileCompareSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await compareProfiles(ctx, sessionOf(request), q.id, { a: q.diffA, b: q.diffB }));
    },
  );
}
