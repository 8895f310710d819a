import pino from 'pino';
import { loadConfig } from './platform/config.ts';
import { migrateToLatest } from './platform/db/store.ts';
import { FIRST_ADMIN, seed } from './platform/db/seed.ts';
import { Jobs } from './platform/jobs/boss.ts';
import { housekeepingJob } from './platform/jobs/housekeeping.ts';
import { openConfiguredStore, startServer } from './server.ts';
import { moduleJobs } from './modules/jobs.ts';
import type { AppContext } from './context.ts';
import { closeRenderer } from './platform/render/renderer.ts';
import { openCacheBus } from './platform/cache/open.ts';

/** One binary, roles by argument: serve | worker | migrate | seed. */
async function main(command: string): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  switch (command) {
    case 'serve': {
      const server = await startServer(config, log);
      const lines = [`数图 ShuTu 已启动: ${server.url}`, `数据目录: ${config.dataDir}`];
      if (server.seeded.createdAdmin && server.seeded.mustChangePassword) {
        lines.push(`首个管理员  账号: ${FIRST_ADMIN.account}  密码: ${FIRST_ADMIN.password}（首次登录须修改密码）`);
      } else if (server.seeded.createdAdmin) lines.push(`首个管理员  账号: ${FIRST_ADMIN.account}  密码: SHUTU_ADMIN_PASSWORD 所设`);
      else lines.push(`管理员账号: ${FIRST_ADMIN.account}（初始密码 ${FIRST_ADMIN.password}，如已修改请用新密码）`);
      process.stdout.write(`\n${lines.join('\n')}\n\n`);
      const stop = async () => {
        await server.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'worker': {
      if (!config.databaseUrl) throw new Error('worker 角色需要 DATABASE_URL：内嵌 PGlite 只能由一个进程打开');
      const store = await openConfiguredStore(config);
      await migrateToLatest(store.db);
      // The worker renders through the serving node (SHUTU_SELF_URL) and works every module's jobs.
      const bus = await openCacheBus(store, log);
      const ctx: AppContext = { config, store, db: store.db, bus, selfUrl: config.selfUrl ?? `http://127.0.0.1:${config.port}` };
      const jobs = await Jobs.start(store, log, [housekeepingJob(store.db, log), ...moduleJobs(ctx, log)], { work: true });
      ctx.jobs = jobs;
      const stop = async () => {
        await jobs.stop();
        await closeRenderer(ctx);
        await bus.close();
        await store.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'migrate':
    case 'seed': {
      const store = await openConfiguredStore(config);
      const applied = await migrateToLatest(store.db);
      log.info({ applied }, 'migrated');
      if (command === 'seed') log.info(await seed(store.db, { adminPassword: config.adminPassword }), 'seeded');
      await store.close();
      return;
    }
    default:
      throw new Error(`unknown command "${command}": use serve | worker | migrate | seed`);
  }
}

main(process.argv[2] ?? 'serve').catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
