import { API, cubePreviewResultSchema, datasetPreviewSchema, envelopeSchema } from '@shutu/contracts';
import type { App, AppContext } from '../../context.ts';
import { sessionOf } from '../../platform/auth/access.ts';
import { ok } from '../../platform/http/envelope.ts';
import { rowsSerializerCompiler } from '../../platform/http/rows-serializer.ts';
import { previewSavedDataset } from './preview.ts';

const tags = ['dataset'];

/** The read module's own route: a saved dataset's preview (the dataset list's 预览 and the editor's 数据预览). */
export function registerReadRoutes(app: App, ctx: AppContext): void {
  app.post(
    API.dataset.preview,
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: '预览已保存的数据集（按 cubeDataId；应用全局过滤与当前用户的权限过滤）',
        body: datasetPreviewSchema,
        response: { 200: envelopeSchema(cubePreviewResultSchema) },
      },
      serializerCompiler: rowsSerializerCompiler,
    },
    async (request) => ok(await previewSavedDataset(ctx, sessionOf(request), request.body)),
  );
}
