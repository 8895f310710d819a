import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { zhCN, type FieldError } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import { AppError } from './errors.ts';
import { fail } from './envelope.ts';

const STATUS_MESSAGES: Record<number, string> = {
  400: zhCN.badRequest,
  401: zhCN.unauthorized,
  403: zhCN.forbidden,
  404: zhCN.notFound,
  409: zhCN.conflict,
  413: '上传内容过大',
  415: '不支持的内容类型',
  429: zhCN.tooManyRequests,
};

/** One place turns every failure into the envelope; 500s never carry a stack or internal text. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'application error');
      return reply.code(error.status).send(fail(error.status, error.message, error.data));
    }
    if (error instanceof ConnectorError) {
      // A data source failed: its Chinese message is for the user, the engine's text (detail)
      // for the SQL editor's error tab; 502 / 504 say the fault is upstream, not ours.
      if (error.status >= 500) request.log.warn({ kind: error.kind, detail: error.detail }, 'data source error');
      return reply.code(error.status).send(fail(error.status, error.message, { kind: error.kind, detail: error.detail }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldError[] = error.validation.map((v) => ({
        field: `${error.validationContext ?? ''}${v.instancePath}`.replace(/^(body|querystring|params|headers)\/?/, '').replaceAll('/', '.'),
        message: v.message ?? zhCN.badRequest,
      }));
      return reply.code(400).send(fail(400, fields[0]?.message ?? zhCN.badRequest, { fields }));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send(fail(500, zhCN.serverError));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(fail(500, zhCN.serverError));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send(fail(400, '请求体不是合法的JSON'));
    }
    return reply.code(status).send(fail(status, STATUS_MESSAGES[status] ?? zhCN.badRequest));
  });
}
