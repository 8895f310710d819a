import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTestServer, storeKinds } from '../../../test/harness.ts';
import { runPull } from './pull.ts';
import { savePlatform, ensureTasks } from './platforms.ts';
import { platformAccess, sealSecret } from './tokens.ts';
import { joinCallback } from './service.ts';
import { demoFans, startFakeWechat } from './testing/fake-wechat.ts';

/**
 * A follower pull across several user/get pages (10 000 each) and many batchget calls (100 each),
 * done twice: the second adds nothing. It prints how long each took (docs/platforms.md "Measured":
 * CDP_BENCH_FANS=20000 for the figure there; the default keeps the test quick).
 */
const FANS = Number(process.env.CDP_BENCH_FANS ?? 12_000);
const kinds = await storeKinds();

describe.each(kinds)('follower pull at scale on %s', (kind) => {
  it(`pulls ${FANS} fans, then again`, async () => {
    const fake = await startFakeWechat({ accounts: [{ appId: 'wx_big', nickName: '大号', headImg: '', signature: '', fans: demoFans('o_big_', FANS) }] });
    const server = await createTestServer(kind, {}, { warehouse: true });
    try {
      const ctx = server.ctx;
      await savePlatform(ctx, {
        id: 1,
        platformName: '微信公众号',
        platformType: 0,
        accessType: 0,
        accessUrl: '/api/cdp/auth/url',
        apiBaseUrl: fake.baseUrl,
        authPageUrl: fake.authPageUrl,
        componentAppId: fake.componentAppId,
        componentAppSecret: fake.componentAppSecret,
        messageToken: fake.messageToken,
        interfaces: [{ interfaceName: '粉丝列表', kind: 'fans', tableName: 'wx_fans', dataType: '0' }],
      });
      // Authorise directly with the platform's tokens (the flow itself is tested in cdp.test.ts).
      const push = fake.ticketPush();
      await ctx.db
        .updateTable('cdpPlatform')
        .set({ verifyTicket: sealSecret(ctx, String(push.body.ComponentVerifyTicket)) })
        .where('id', '=', 1)
        .execute();
      const access = await platformAccess(ctx, 1);
      const pre = (await (
        await fetch(`${fake.baseUrl}/cgi-bin/component/api_create_preauthcode?component_access_token=${access.token}`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).json()) as { pre_auth_code: string };
      const page = await fetch(
        `${fake.authPageUrl}?component_appid=${fake.componentAppId}&pre_auth_code=${encodeURIComponent(pre.pre_auth_code)}&redirect_uri=http://x/cb`,
        { redirect: 'manual' },
      );
      const code = new URL(page.headers.get('location')!).searchParams.get('auth_code')!;
      const { id } = await joinCallback(ctx, { userId: 1, isAdministrator: true }, { platformDictId: 1, auth_code: code });
      await ensureTasks(ctx, id);
      const task = await ctx.db.selectFrom('cdpTask').select('id').where('applyId', '=', id).executeTakeFirstOrThrow();
      const log = pino({ level: 'silent' });
      for (const round of ['first', 'again']) {
        const started = performance.now();
        const outcome = await runPull(ctx, log, task.id, 'manual');
        const ms = Math.round(performance.now() - started);
        console.log(`[cdp bench] ${kind} ${round} pull of ${FANS} fans: ${ms} ms (${Math.round(FANS / (ms / 1000))} fans/s)`);
        expect(outcome).toMatchObject({ result: true, amount: FANS });
        const stored = await ctx.db
          .selectFrom('cdpFan')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(stored.n)).toBe(FANS);
      }
    } finally {
      await server.close();
      await fake.close();
    }
  }, 600_000);
});
