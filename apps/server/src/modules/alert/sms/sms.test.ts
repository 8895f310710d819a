import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { smsProviderSchema, type SmsCategory } from '@shutu/contracts';
import { alertWorld, type AlertWorld } from '../../../../test/alert-fixtures.ts';
import { call } from '../../../../test/fixtures.ts';
import { startFakeSmsProvider, type FakeSmsProvider } from '../../../../test/sms-servers.ts';
import { runCheck } from '../check.ts';
import { sendSms } from './client.ts';

/** SMS through the three providers, each signing its requests as documented (issue 19; docs/alerts.md "SMS"). */

const log = pino({ level: 'silent' });
const SECRETS: Record<SmsCategory, [string, string]> = {
  aliyun: ['LTAI-test-key', 'aliyun-secret/+= *~'],
  tencent: ['AKID-test', 'tencent-secret'],
  qiniu: ['qiniu-ak', 'qiniu-sk'],
};

describe('SMS clients against fake providers that verify the signature', () => {
  const fakes = {} as Record<SmsCategory, FakeSmsProvider>;
  beforeAll(async () => {
    for (const category of ['aliyun', 'tencent', 'qiniu'] as const) {
      fakes[category] = await startFakeSmsProvider(category, { [SECRETS[category][0]]: SECRETS[category][1] });
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(fakes).map((f) => f.close()));
  });
  const provider = (category: SmsCategory, secret = SECRETS[category][1]) =>
    smsProviderSchema.parse({
      category,
      templateId: 'SMS_001',
      accessKey: SECRETS[category][0],
      secretKey: secret,
      regionId: category === 'aliyun' ? 'cn-hangzhou' : 'ap-beijing',
      appId: '1400000000',
      signName: '数图',
      endpoint: fakes[category].url,
    });
  const send = { phones: ['13800000000'], params: [['省份', '广东'] as [string, string], ['订单数', '12'] as [string, string]] };

  it.each(['aliyun', 'tencent', 'qiniu'] as const)('%s: a signed request is accepted with the phones and the template parameters', async (category) => {
    await sendSms(provider(category), send);
    const last = fakes[category].received.at(-1)!;
    expect(last.accepted).toBe(true);
    expect(last.phones).toEqual([category === 'tencent' ? '+8613800000000' : '13800000000']);
    expect(last.params).toEqual(category === 'tencent' ? ['广东', '12'] : { 省份: '广东', 订单数: '12' });
  });

  it.each([
    ['aliyun', '阿里云短信拒绝了短信（SignatureDoesNotMatch）'],
    ['tencent', '腾讯云短信拒绝了短信（AuthFailure.SignatureFailure）'],
    ['qiniu', '七牛云短信拒绝了短信（bad token）'],
  ] as const)('%s: a wrong secret is refused', async (category, message) => {
    await expect(sendSms(provider(category, 'wrong-secret'), send)).rejects.toThrow(message);
    expect(fakes[category].received.at(-1)!.accepted).toBe(false);
  });
});

describe('SMS alerts (issue 19)', () => {
  let a: AlertWorld;
  let aliyun: FakeSmsProvider;
  beforeAll(async () => {
    [a, aliyun] = await Promise.all([alertWorld(), startFakeSmsProvider('aliyun', { [SECRETS.aliyun[0]]: SECRETS.aliyun[1] })]);
    await a.w.server.ctx.db.updateTable('sysUser').set({ phone: '13900000001' }).where('id', '=', 1).execute();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.w.close(), aliyun?.close()]);
  });

  it('keeps the provider secret encrypted and masked, with the region defaults', async () => {
    const put = await call(a.w.server, 'PUT', '/api/alert/sms/providers', {
      headers: a.w.admin,
      payload: {
        category: 'aliyun',
        templateId: 'SMS_001',
        accessKey: SECRETS.aliyun[0],
        secretKey: SECRETS.aliyun[1],
        signName: '数图',
        endpoint: aliyun.url,
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ secretKey: '******', regionId: 'cn-hangzhou' });
    const stored = await a.w.server.ctx.db.selectFrom('alertSmsProvider').select('settings').where('category', '=', 'aliyun').executeTakeFirstOrThrow();
    expect(stored.settings).not.toContain(SECRETS.aliyun[1]);
    // ****** keeps the stored secret.
    await call(a.w.server, 'PUT', '/api/alert/sms/providers', { headers: a.w.admin, payload: { ...put.body.data, secretKey: '******' } });
    const list = await call(a.w.server, 'GET', '/api/alert/sms/providers', { headers: a.w.admin });
    expect(list.body.data.map((p: { category: string; regionId: string }) => [p.category, p.regionId])).toEqual([
      ['aliyun', 'cn-hangzhou'],
      ['qiniu', ''],
      ['tencent', 'ap-beijing'],
    ]);
    expect((await call(a.w.server, 'GET', '/api/alert/sms/providers', { headers: a.member.headers })).status).toBe(403);
  });

  it('maps every template variable, then texts the rows values through the signed provider', async () => {
    const template = await call(a.w.server, 'POST', '/api/alert/sms/templates', {
      headers: a.w.admin,
      payload: { templateName: '订单预警', templateContent: '${省份}订单数${订单数}，请关注（${备注}）', category: 'aliyun' },
    });
    expect(template.body.data).toMatchObject({ templateParams: '省份,订单数,备注', category: 'aliyun' });
    const body = (smsParams: Record<string, string>) =>
      a.body({
        name: '短信预警',
        checkedWays: ['sms'],
        smsId: template.body.data.id,
        smsParams,
        filterJson: [{ cubeColumnId: a.f['订单编号'], connectTime: 'having', conditions: [{ function: 'gt', values: [0] }] }],
      });
    const incomplete = await a.save(a.w.admin, body({ 省份: `field:${a.f['省份']}` }));
    expect([incomplete.status, incomplete.body.msg]).toEqual([400, '请完成【订单数】字段参数']);
    const saved = await a.save(a.w.admin, body({ 省份: `field:${a.f['省份']}`, 订单数: `field:${a.f['订单编号']}`, 备注: '数图预警' }));
    expect(saved.status).toBe(200);
    const now = new Date();
    expect(await runCheck(a.w.server.ctx, log, { alertId: saved.body.data.id, slot: now.toISOString() }, null, now)).toBe('checked');
    const sent = aliyun.received.at(-1)!;
    expect(sent).toMatchObject({ accepted: true, phones: ['13900000001'] });
    expect(sent.params).toMatchObject({ 备注: '数图预警' });
    expect((sent.params as Record<string, string>)['省份']).toMatch(/.+/);
    expect((sent.params as Record<string, string>)['订单数']).toMatch(/^\d+$/);
    const logs = await call(a.w.server, 'GET', '/api/alert/logs', { headers: a.w.admin, query: { alertId: saved.body.data.id } });
    expect(logs.body.data.records[0].channels).toEqual([{ channel: 'sms', recipient: '13900000001', status: 'sent', errMsg: null }]);
  });
});
