import type { FastifyRequest } from 'fastify';
import { DATA_API_PARAM_LABELS, DATA_API_PATHS, type ApiParam, type DataApi } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { identifyCaller } from './keys.ts';
import { declaredParams, parseNote, type3Kind } from './params.ts';
import { listOnlineApis } from './repo.ts';
import { keyApiIds } from './runtime-repo.ts';

/**
 * The OpenAPI 3.1 document of the published APIs (docs/dataapi.md "OpenAPI"), at
 * DATA_API_PATHS.openapi. It is privilege-aware: a caller with an access key sees the online
 * APIs that key may call, a signed-in user every online API (they call them with their own
 * table grants); without credentials 401. Parameters are typed (formats and patterns from the
 * spec's parameter types) and marked required when they have no default; response schemas come
 * from each API's showFields; the bearer key, the signature headers and the user token are the
 * security schemes.
 */

type Schema = Record<string, unknown>;

const PARAM_SCHEMAS: Record<ApiParam['datatype'], Schema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  date: { type: 'string', pattern: '^[0-9]{8}$', examples: ['20240131'] },
  month: { type: 'string', pattern: '^[0-9]{6}$', examples: ['202401'] },
  time: { type: 'string', pattern: '^[0-9]{2}:[0-9]{2}:[0-9]{2}$', examples: ['08:30:00'] },
  timestamp: { type: 'integer', description: '毫秒时间戳' },
};

const TYPE3_SCHEMAS: Record<ReturnType<typeof type3Kind>, Schema> = {
  string: { type: 'string' },
  datetime: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2})?$' },
  integer: { type: 'integer' },
  number: { type: 'number' },
};

interface ParamDoc {
  name: string;
  description: string;
  required: boolean;
  schema: Schema;
}

function paramsOf(api: DataApi): ParamDoc[] {
  if (api.apiType === 3) {
    return api.queryParam.map((item) => ({
      name: item.paramName,
      description: item.title || item.columnName,
      required: item.optionalStatus === 1,
      schema: TYPE3_SCHEMAS[type3Kind(item.columnType)],
    }));
  }
  let params: ApiParam[];
  try {
    params = declaredParams(parseNote(api.note));
  } catch {
    params = [];
  }
  return params.map((p) => {
    const hasDefault = p.def !== undefined && p.def !== null && String(p.def).trim() !== '';
    const schema: Schema = { ...PARAM_SCHEMAS[p.datatype] };
    if (hasDefault) schema.default = p.datatype === 'number' || p.datatype === 'timestamp' ? Number(p.def) : String(p.def);
    return { name: p.key.trim(), description: `${p.name || p.key}（${DATA_API_PARAM_LABELS[p.datatype]}）`, required: !hasDefault, schema };
  });
}

function dataSchema(api: DataApi): Schema {
  if (api.apiType === 2) return { description: '处理函数返回的 JSON' };
  let fields: { columnName: string; columnComments: string; dataType: number }[];
  try {
    fields = parseNote(api.note).showFields;
  } catch {
    fields = [];
  }
  const properties = Object.fromEntries(
    fields.map((f) => [
      f.columnName,
      {
        description: f.columnComments || f.columnName,
        // Indicators are numbers (decimal text beyond 2^53); dimensions any scalar.
        type: f.dataType === 1 ? ['number', 'string', 'null'] : ['string', 'number', 'boolean', 'null'],
      },
    ]),
  );
  return { type: 'array', items: { type: 'object', properties, additionalProperties: true } };
}

const envelope = (data: Schema): Schema => ({
  type: 'object',
  required: ['code', 'success', 'msg', 'data'],
  properties: { code: { type: 'integer' }, success: { type: 'boolean' }, msg: { type: 'string' }, data },
});

const errorResponses = {
  '400': { description: '参数缺失或类型不符（msg 指明参数）', content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
  '401': {
    description: '未提供或无效的密钥、签名或令牌；签名过期或重放',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
  },
  '403': { description: '密钥无权调用此接口，或接口已下线', content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
  '429': { description: '调用过于频繁', content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
  '503': { description: '接口故障', content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
};

function operations(api: DataApi): Schema {
  const params = paramsOf(api);
  const ok = { '200': { description: '成功', content: { 'application/json': { schema: envelope(dataSchema(api)) } } }, ...errorResponses };
  const bodySchema: Schema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, { ...p.schema, description: p.description }])),
    ...(params.some((p) => p.required) ? { required: params.filter((p) => p.required).map((p) => p.name) } : {}),
  };
  const summary = api.apiName;
  const description = api.remark || undefined;
  return {
    get: {
      operationId: `get_${api.apiKey}`,
      summary,
      ...(description ? { description } : {}),
      parameters: params.map((p) => ({ name: p.name, in: 'query', required: p.required, description: p.description, schema: p.schema })),
      responses: ok,
    },
    post: {
      operationId: `post_${api.apiKey}`,
      summary,
      ...(description ? { description } : {}),
      requestBody: {
        required: params.some((p) => p.required),
        content: { 'application/json': { schema: bodySchema }, 'application/x-www-form-urlencoded': { schema: bodySchema } },
      },
      responses: ok,
    },
  };
}

/** The document for these APIs. */
export function openApiDocument(apis: DataApi[], serverUrl: string): Schema {
  const header = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    info: { title: '数图 数据接口', version: '1.0.0', description: '已发布（上线）的数据接口。响应统一为 { code, success, msg, data }。' },
    servers: [{ url: serverUrl }],
    security: [{ accessKey: [] }, { signatureKey: [], signatureTimestamp: [], signatureNonce: [], signature: [] }, { userToken: [] }],
    paths: Object.fromEntries(apis.map((api) => [DATA_API_PATHS.open.replace(':apiKey', api.apiKey), operations(api)])),
    components: {
      securitySchemes: {
        accessKey: { type: 'http', scheme: 'bearer', description: '访问密钥的 secret（sk_ 开头）：Authorization: Bearer <secret>' },
        signatureKey: header('X-Access-Key', '访问密钥（ak_ 开头）'),
        signatureTimestamp: header('X-Timestamp', '毫秒时间戳，与服务器时间相差不超过 5 分钟'),
        signatureNonce: header('X-Nonce', '每次请求唯一的随机串（最长 128 个字符），重复使用将被拒绝'),
        signature: header('X-Signature', 'hex(HMAC-SHA256(secret, accessKey + "\\n" + timestamp + "\\n" + nonce))'),
        userToken: { type: 'http', scheme: 'bearer', description: '数图登录令牌：按该用户的数据表权限读取' },
      },
      schemas: { Failure: envelope({ description: '失败详情，如 fields: [{ field, message }]' }) },
    },
  };
}

/** The document the caller may see (401 without credentials). */
export async function openApiFor(ctx: AppContext, request: FastifyRequest): Promise<Schema> {
  const identity = await identifyCaller(ctx, request);
  const apis = identity.kind === 'key' ? await listOnlineApis(ctx.db, await keyApiIds(ctx.db, identity.key.id)) : await listOnlineApis(ctx.db);
  const host = request.headers.host ?? 'localhost';
  return openApiDocument(apis, `${request.protocol}://${host}`);
}
