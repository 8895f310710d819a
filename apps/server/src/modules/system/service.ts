import type { Kysely } from 'kysely';
import { DEFAULT_SYSTEM_NAME, type SystemConfig } from '@shutu/contracts';
import type { Database } from '../../platform/db/schema.ts';

const SYSTEM_NAME_KEY = 'systemName';

export async function getSystemConfig(db: Kysely<Database>): Promise<SystemConfig> {
  const row = await db.selectFrom('sysConfig').select('value').where('key', '=', SYSTEM_NAME_KEY).executeTakeFirst();
  return { systemName: row?.value ?? DEFAULT_SYSTEM_NAME };
}

export async function saveSystemConfig(db: Kysely<Database>, config: SystemConfig): Promise<SystemConfig> {
  await db
    .insertInto('sysConfig')
    .values({ key: SYSTEM_NAME_KEY, value: config.systemName })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: config.systemName }))
    .execute();
  return config;
}
