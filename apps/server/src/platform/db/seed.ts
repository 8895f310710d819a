import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { hashPassword, md5Hex } from '../auth/password.ts';

export const FIRST_ADMIN = { account: 'admin', password: 'admin123' } as const;

/** Shortest administrator password an operator may choose (SHUTU_ADMIN_PASSWORD): the web app's rule for every password. */
export const ADMIN_PASSWORD_MIN_LENGTH = 6;

export interface SeedOptions {
  /**
   * The operator's choice of the first administrator password (SHUTU_ADMIN_PASSWORD), read at the
   * first seeding only. Unset: the built-in admin123, which must be changed at first login.
   */
  adminPassword?: string;
}

export interface SeedResult {
  createdAdmin: boolean;
  /** The administrator was created with the built-in password and must change it at first login. */
  mustChangePassword?: boolean;
}

/** First start only: the administrator and a small organisation to try things with. Idempotent. */
export async function seed(db: Kysely<Database>, options: SeedOptions = {}): Promise<SeedResult> {
  const existing = await db.selectFrom('sysUser').select('id').limit(1).executeTakeFirst();
  if (existing) return { createdAdmin: false };
  const chosen = options.adminPassword || undefined;
  if (chosen !== undefined && chosen.length < ADMIN_PASSWORD_MIN_LENGTH) {
    throw new Error(`SHUTU_ADMIN_PASSWORD must have at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`);
  }
  const mustChangePassword = chosen === undefined;
  const passwordHash = await hashPassword(md5Hex(chosen ?? FIRST_ADMIN.password));
  await db.transaction().execute(async (trx) => {
    const company = await trx.insertInto('sysDept').values({ parentId: 0, deptName: '数图科技', sort: 1 }).returning('id').executeTakeFirstOrThrow();
    await trx
      .insertInto('sysDept')
      .values([
        { parentId: company.id, deptName: '数据分析部', sort: 1 },
        { parentId: company.id, deptName: '市场运营部', sort: 2 },
      ])
      .execute();
    const analyst = await trx.insertInto('sysRole').values({ parentId: 0, roleName: '数据分析师', sort: 1 }).returning('id').executeTakeFirstOrThrow();
    await trx
      .insertInto('sysRolePermission')
      .values([
        { roleId: analyst.id, code: 'cube_filter_row' },
        { roleId: analyst.id, code: 'dict_view' },
      ])
      .execute();
    await trx
      .insertInto('sysUser')
      .values({
        account: FIRST_ADMIN.account,
        passwordHash,
        name: '系统管理员',
        realName: '管理员',
        deptId: company.id,
        isAdministrator: true,
        status: 1,
        mustChangePassword,
      })
      .execute();
    await trx
      .insertInto('sysConfig')
      .values({ key: 'systemName', value: '数图' })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  });
  return { createdAdmin: true, mustChangePassword };
}
