import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type RouteOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API, zhCN } from '@shutu/contracts';
import type { AppContext, App } from './context.ts';
import { installAccessControl } from './platform/auth/access.ts';
import { installErrorHandler } from './platform/http/error-handler.ts';
import { installSecurityHeaders } from './platform/http/security-headers.ts';
import { installJsonCompression, isAssetPath, REVALIDATE, serveWebAssets } from './platform/http/static-assets.ts';
import { embedOrigins } from './modules/system/embed-settings.ts';
import { fail } from './platform/http/envelope.ts';
import { modules } from './modules/index.ts';

export interface BuildOptions {
  logger?: FastifyBaseLogger | false;
  /** Sees every route as it registers, before any other hook; the route-guard test lists them with it. */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: true,
  }).withTypeProvider<ZodTypeProvider>();
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // Before access control: a refused request carries the headers too.
  await installSecurityHeaders(app, { embedOrigins: () => embedOrigins(ctx) });
  installAccessControl(app, ctx.db, ctx);

  installJsonCompression(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'ShuTu 数图 API', version: '0.1.0', description: '所有接口返回 {code, success, msg, data}' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Lists schemas named with `.meta({ id })` (the recursive trees) under components.schemas.
    transformObject: jsonSchemaTransformObject,
  });

  app.get(API.health, { config: { access: 'public' }, schema: { hide: true } }, async () => ({
    code: 200,
    success: true,
    msg: zhCN.ok,
    data: { status: 'ok' },
  }));
  app.get(API.docs, { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  for (const register of modules) await register(app, ctx);

  const webDist = ctx.config.webDist;
  const indexHtml = webDist ? path.join(webDist, 'index.html') : undefined;
  const serveWeb = indexHtml !== undefined && fs.existsSync(indexHtml);
  if (serveWeb) await serveWebAssets(app, webDist!);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !serveWeb || request.method !== 'GET' || isAssetPath(request.url)) {
      return reply.code(404).send(fail(404, zhCN.routeNotFound));
    }
    // Client-side routes all load the single page (revalidated); its assets are hashed and cached.
    return reply.header('cache-control', REVALIDATE).sendFile('index.html');
  });

  return app as App;
}
