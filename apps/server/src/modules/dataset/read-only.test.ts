import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase64Json, type DatasetSave } from '@shutu/contracts';
import { storeKinds } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { datasetWorld, fieldIds, ordersDataset, type DatasetWorld, type Headers } from '../../../test/dataset-fixtures.ts';

/**
 * Reading a dataset without changing it (docs/datasets.md "Reading without editing"): a member
 * granted a dataset through a group sees its detail (editable false), its fields and its
 * preview under their group's row filter, and is refused saving and deleting it with a Chinese
 * message. And the demo warehouse, freshly generated, ends on the seed day: the relative
 * filters 本月 and 最近7天 find rows (docs/warehouse.md "Knobs").
 */
const kinds = await storeKinds();

type Row = Record<string, unknown>;

/** The China wall-clock day `days` from today, 'YYYY-MM-DD' (relative filters count days in the server's zone, Asia/Shanghai by default). */
const chinaDay = (days = 0) => new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

describe.each(kinds)('a dataset read but not changed, on %s', (kind) => {
  let w: DatasetWorld;
  let member: Headers;
  let cubeId: number;
  let ids: Record<string, number>;

  const withOrderTime = (workspaceId: number): DatasetSave => {
    const base = ordersDataset(workspaceId, w.warehouseId, '订单（只读）');
    return {
      ...base,
      columnList: [
        ...base.columnList,
        { id: 'orderTime', columnName: 'order_time', columnTitle: '订购时间', tableAliasName: 'o', columnAttr: 'NORMAL', viewDataType: 'DATETIME' },
      ],
    };
  };

  beforeAll(async () => {
    w = await datasetWorld(kind);
    const workspaceId = await w.category('只读测试');
    cubeId = (await w.save(w.admin, withOrderTime(workspaceId))).body.data;
    ids = await fieldIds(w.server, w.admin, cubeId);
    const user = await w.member();
    member = user.headers;
    // The member's group is granted the dataset, not the orders table: reading, not building.
    const group = await w.group([user.id]);
    const grant = await call(w.server, 'PUT', `/api/dataset/auth/${group}/cubes`, {
      headers: w.admin,
      payload: { cubeWorkspaceId: workspaceId, dataIdList: [cubeId] },
    });
    expect(grant.status, grant.raw.body).toBe(200);
    await w.permFilter(cubeId, group, { name: '一号过滤器', fieldId: ids['省份'], values: ['广东'] });
  }, 120_000);
  afterAll(() => w?.close());

  it('shows the detail as not editable and the fields', async () => {
    const detail = await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: member });
    expect(detail.status, detail.raw.body).toBe(200);
    expect(detail.body.data).toMatchObject({ cubeName: '订单（只读）', editable: false });
    const fields = await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}/fields`, { headers: member });
    expect(fields.status).toBe(200);
    expect((fields.body.data as { columnTitle: string }[]).map((f) => f.columnTitle)).toContain('订购时间');
  });

  it("previews the rows of the member's row filter only, dates in the connectors' normal form", async () => {
    const request = { detail: true, dimensions: [{ fieldId: ids['省份'] }, { fieldId: ids['订购时间'] }], limit: 50, withTotal: true };
    const res = await w.preview(member, cubeId, request);
    expect(res.status, res.raw.body).toBe(200);
    const rows = res.body.data.dataList as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.d0))).toEqual(new Set(['广东']));
    expect(rows[0]!.d1).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const [expected] = await w.direct(`SELECT count(*) AS n FROM orders WHERE province = '广东'`);
    expect(res.body.data.total).toBe(Number(expected!.n));
  });

  it('refuses saving and deleting with a Chinese message, and leaves the dataset as it was', async () => {
    const save = await call(w.server, 'POST', '/api/dataset/cubes', {
      headers: member,
      payload: { payload: encodeBase64Json({ ...withOrderTime(1), id: cubeId, cubeData: { ...withOrderTime(1).cubeData, cubeName: '改名' } }) },
    });
    expect(save.status, save.raw.body).toBe(403);
    expect(save.body.msg).toBe('只能修改或删除自己创建的数据集');
    const remove = await call(w.server, 'DELETE', `/api/dataset/cubes/${cubeId}`, { headers: member });
    expect(remove.status).toBe(403);
    expect(remove.body.msg).toBe('只能修改或删除自己创建的数据集');
    const after = await call(w.server, 'GET', `/api/dataset/cubes/${cubeId}`, { headers: w.admin });
    expect(after.body.data.cubeName).toBe('订单（只读）');
  });

  it('relative filters 本月 and 最近7天 find rows on the freshly generated demo data, as many as SQL counts', async () => {
    const count = async (condition: Record<string, unknown>) => {
      const res = await w.preview(w.admin, cubeId, {
        measures: [{ fieldId: ids['订单编号'], aggregation: 'COUNT' }],
        where: { conditions: [{ cubeColumnId: ids['订购时间'], conditions: [{ timeType: 'relative', countType: 'left', ...condition }] }] },
      });
      expect(res.status, res.raw.body).toBe(200);
      return Number((res.body.data.dataList as Row[])[0]!.m0);
    };
    const direct = async (from: string, to: string) =>
      Number((await w.direct(`SELECT count(*) AS n FROM orders WHERE order_time >= DATE '${from}' AND order_time < DATE '${to}'`))[0]!.n);

    const today = chinaDay();
    const nextMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const thisMonth = await count({ function: 'eq', dateType: 'MONTH', values: [0] });
    expect(thisMonth).toBeGreaterThan(0);
    expect(thisMonth).toBe(await direct(`${today.slice(0, 7)}-01`, nextMonth));

    const lastSevenDays = await count({ function: 'between', dateType: 'DAY', values: [7] });
    expect(lastSevenDays).toBeGreaterThan(0);
    expect(lastSevenDays).toBe(await direct(chinaDay(-6), chinaDay(1)));
  });
});
