import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zhCN } from '@shutu/contracts';
import { ConnectorError } from '@shutu/connectors';
import { installErrorHandler } from './error-handler.ts';
import { conflict, fieldError } from './errors.ts';
import { ok } from './envelope.ts';

const SECRET = 'password authentication failed for user "shutu" at /srv/internal/db.ts';

describe('error handler', () => {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    const body = z.object({
      name: z.string().min(1, '请输入名称'),
      owner: z.object({ email: z.email('请输入正确的邮箱') }),
    });
    app.post('/echo', { schema: { body } }, async (request) => ok(request.body));
    app.get('/crash', async () => {
      throw new Error(SECRET);
    });
    app.get('/crash-with-status', async () => {
      throw Object.assign(new Error(SECRET), { statusCode: 503 });
    });
    app.get('/taken', async () => {
      throw conflict('名称已存在');
    });
    app.get('/field', async () => {
      throw fieldError('code', '编码不能为空');
    });
    app.get('/upstream', async () => {
      throw new ConnectorError('unreachable', '无法连接数据源 10.0.0.1:5432（连接被拒绝），请检查主机地址、端口和网络', 'connect ECONNREFUSED 10.0.0.1:5432');
    });
    app.get('/bad-response', { schema: { response: { 200: z.object({ n: z.number() }) } } }, async () => ({ n: SECRET }) as unknown as { n: number });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a body that fails its schema with 400 and the list of fields', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: '', owner: { email: 'nope' } } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ code: 400, success: false });
    expect(body.data.fields).toEqual(
      expect.arrayContaining([
        { field: 'name', message: '请输入名称' },
        { field: 'owner.email', message: '请输入正确的邮箱' },
      ]),
    );
    expect(body.msg).toBe(body.data.fields[0].message);
  });

  it('answers a body that is not JSON with 400 and a Chinese message', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, success: false, msg: '请求体不是合法的JSON', data: null });
  });

  it('answers an unexpected error with a bare 500: no message, no stack', async () => {
    for (const url of ['/crash', '/crash-with-status', '/bad-response']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(500);
      expect(res.json(), url).toEqual({ code: 500, success: false, msg: zhCN.serverError, data: null });
      expect(res.body, url).not.toMatch(/password|\/srv\/|\.ts|at \w+ \(/);
    }
  });

  it('answers a data-source failure with its status, Chinese message and the engine text as detail', async () => {
    const res = await app.inject({ method: 'GET', url: '/upstream' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      code: 502,
      success: false,
      msg: '无法连接数据源 10.0.0.1:5432（连接被拒绝），请检查主机地址、端口和网络',
      data: { kind: 'unreachable', detail: 'connect ECONNREFUSED 10.0.0.1:5432' },
    });
  });

  it('passes application errors through with their status, message and fields', async () => {
    const taken = await app.inject({ method: 'GET', url: '/taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 409, success: false, msg: '名称已存在', data: null });
    const field = await app.inject({ method: 'GET', url: '/field' });
    expect(field.statusCode).toBe(400);
    expect(field.json()).toEqual({ code: 400, success: false, msg: '编码不能为空', data: { fields: [{ field: 'code', message: '编码不能为空' }] } });
  });
});
