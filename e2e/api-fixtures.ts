import { apiCall, demoWarehouseId, type E2EApp } from './harness.ts';

/** A column of the demo `orders` table as a dataset field (alias `o`). */
export const ordersField = (id: string, columnName: string, columnTitle: string, extra: Record<string, unknown> = {}) => ({
  id,
  columnName,
  columnTitle,
  tableAliasName: 'o',
  columnAttr: 'NORMAL',
  ...extra,
});

/** 省份, 订单编号, 订购时间, 金额: the fields most browser tests chart or export. */
export const ORDER_FIELDS = [
  ordersField('province', 'province', '省份'),
  ordersField('orderId', 'order_id', '订单编号', { viewDataType: 'NUMBER' }),
  ordersField('orderTime', 'order_time', '订购时间', { viewDataType: 'DATETIME' }),
  ordersField('amount', 'amount', '金额', { viewDataType: 'NUMBER', dimensionType: 'ZHIBIAO' }),
];

/**
 * A dataset over the demo warehouse's `orders`, made through the API as an administrator would:
 * a new category, the dataset, and its field ids by title.
 */
export async function createOrdersDataset(
  app: E2EApp,
  token: string,
  options: { category: string; name: string; publicStatus: 0 | 1; fields?: ReturnType<typeof ordersField>[] },
): Promise<{ cubeId: number; categoryId: number; fieldIds: Record<string, number> }> {
  const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
  const warehouseId = demoWarehouseId(sources.records);
  const ws = await apiCall<{ id: number }>(app, token, 'POST', '/api/dataset/categories', { wsName: options.category, parentId: 0 });
  const cubeId = await apiCall<number>(app, token, 'POST', '/api/dataset/cubes', {
    cubeData: {
      cubeName: options.name,
      workspaceId: ws.id,
      cubeTableNames: [{ tableName: 'orders', tableAliasName: 'o' }],
      publicStatus: options.publicStatus,
    },
    datasourceId: warehouseId,
    columnList: options.fields ?? ORDER_FIELDS,
  });
  const fields = await apiCall<{ id: number; columnTitle: string }[]>(app, token, 'GET', `/api/dataset/cubes/${cubeId}/fields`);
  return { cubeId, categoryId: ws.id, fieldIds: Object.fromEntries(fields.map((x) => [x.columnTitle, x.id])) };
}
