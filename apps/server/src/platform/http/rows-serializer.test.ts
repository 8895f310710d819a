import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { cubePreviewResultSchema, envelopeSchema, zhCN } from '@shutu/contracts';
import { installErrorHandler } from './error-handler.ts';
import { ok } from './envelope.ts';
import { rowsSerializerCompiler } from './rows-serializer.ts';

const field = { alias: 'd0', fieldId: 1, title: '省份', viewDataType: 'STRING', kind: 'dimension', aggregation: null, granularity: null };

describe('rows serializer', () => {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  let answer: unknown;
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    const schema = { response: { 200: envelopeSchema(cubePreviewResultSchema) } };
    const handler = async () => answer as never;
    app.get('/rows', { schema, serializerCompiler: rowsSerializerCompiler }, handler);
    app.get('/zod', { schema }, handler);
    await app.ready();
  });
  afterAll(() => app.close());

  const both = async () => {
    const [fast, zod] = await Promise.all([app.inject({ url: '/rows' }), app.inject({ url: '/zod' })]);
    return { fast: { status: fast.statusCode, body: fast.json() as unknown }, zod: { status: zod.statusCode, body: zod.json() as unknown } };
  };

  it('answers exactly what the zod serializer answers, rows in order, unknown keys of the envelope dropped', async () => {
    const rows = [
      { d0: '广东', m0: 12.5, flag: true, empty: null },
      { d0: 'a "quoted" \\ value', m0: -0.000001, flag: false, empty: '' },
    ];
    answer = ok({ dataList: rows, fieldDict: [{ ...field, internal: 'x' }], total: null, elapsedMs: 3, extra: 'dropped' });
    const { fast, zod } = await both();
    expect(fast).toEqual(zod);
    expect(fast.status).toBe(200);
    expect(fast.body).toMatchObject({ data: { dataList: rows, total: null, elapsedMs: 3 } });
    expect(JSON.stringify(fast.body)).not.toMatch(/dropped|internal/);
  });

  it('refuses what zod refuses, with the same 500', async () => {
    for (const bad of [{ m0: Number.POSITIVE_INFINITY }, { m0: Number.NaN }, { m0: { nested: 1 } }, { m0: [1] }, { m0: 10n }]) {
      answer = ok({ dataList: [{ d0: 'x' }, bad], fieldDict: [field], total: 2, elapsedMs: 1 });
      const { fast, zod } = await both();
      expect(fast).toEqual(zod);
      expect(fast.status).toBe(500);
      expect(fast.body).toMatchObject({ msg: zhCN.serverError });
    }
  });
});
