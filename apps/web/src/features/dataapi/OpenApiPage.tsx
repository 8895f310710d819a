import { Card, Descriptions, Empty, Spin, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { errorText } from '../../shared/notify.ts';
import { dataApiKeys, fetchOpenApi, type OpenApiOperation, type OpenApiSchema } from './api.ts';
import { am } from './messages.ts';

const typeText = (s: OpenApiSchema | undefined) => {
  if (!s) return '-';
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return s.pattern ? `${type}（${s.pattern}）` : type;
};

function Operation({ path, method, op }: { path: string; method: string; op: OpenApiOperation }) {
  const data = op.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
  const fields = Object.entries(data?.items?.properties ?? {});
  return (
    <div className="dataapi-doc-op" data-testid={`openapi-${method}-${path}`}>
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        <Tag color={method === 'get' ? 'blue' : 'green'}>{method.toUpperCase()}</Tag>
        <span className="dataapi-doc-path">{path}</span>
      </Typography.Paragraph>
      {method === 'get' && (op.parameters?.length ?? 0) > 0 && (
        <Table
          size="small"
          rowKey="name"
          pagination={false}
          dataSource={op.parameters}
          columns={[
            { title: am.docsParams, dataIndex: 'name', render: (n: string) => <code>{n}</code> },
            { title: am.colType, key: 'type', render: (_, p) => typeText(p.schema) },
            { title: am.colRequired, key: 'req', render: (_, p) => (p.required ? am.docsRequired : am.docsOptional) },
            { title: am.docsDefault, key: 'def', render: (_, p) => (p.schema?.default === undefined ? '-' : String(p.schema.default)) },
            { title: am.remark, dataIndex: 'description' },
          ]}
        />
      )}
      {method === 'post' && (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {am.docsPostBody}
        </Typography.Paragraph>
      )}
      {method === 'get' && fields.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {am.docsResponse}：{fields.map(([name, f]) => `${name}${f.description && f.description !== name ? `（${f.description}）` : ''}`).join('、')}
        </Typography.Paragraph>
      )}
    </div>
  );
}

/** 接口文档 (/newbi/dataapi/docs): a readable rendering of /open/api-docs/openapi.json (no swagger-ui: the app's CSP allows no inline scripts). */
export function OpenApiPage() {
  const doc = useQuery({ queryKey: dataApiKeys.openapi, queryFn: fetchOpenApi });
  const paths = Object.entries(doc.data?.paths ?? {});
  const schemes = Object.entries(doc.data?.components?.securitySchemes ?? {});
  return (
    <PageContainer
      title={am.pageDocs}
      description={
        <>
          {am.pageDocsDesc} · <Typography.Text code>GET /open/api-docs/openapi.json</Typography.Text>
        </>
      }
    >
      {doc.isLoading && <Spin />}
      {doc.isError && <Typography.Text type="danger">{errorText(doc.error)}</Typography.Text>}
      {doc.data && (
        <>
          <Card size="small" title={am.docsAuth} style={{ marginBottom: 16 }}>
            <Descriptions column={1} size="small" bordered>
              {schemes.map(([name, s]) => (
                <Descriptions.Item key={name} label={s.name ?? (s.scheme === 'bearer' ? 'Authorization: Bearer' : name)}>
                  {s.description}
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
          {paths.length === 0 && <Empty description={am.docsEmpty} />}
          {paths.map(([path, ops]) => {
            const first = ops.get ?? Object.values(ops)[0];
            return (
              <Card key={path} size="small" title={first?.summary ?? path} style={{ marginBottom: 16 }} data-testid="openapi-api">
                {first?.description && <Typography.Paragraph>{first.description}</Typography.Paragraph>}
                {Object.entries(ops).map(([method, op]) => (
                  <Operation key={method} path={path} method={method} op={op} />
                ))}
              </Card>
            );
          })}
        </>
      )}
    </PageContainer>
  );
}
