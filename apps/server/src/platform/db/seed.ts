import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { DEFAULT_PERM_TYPE_NAME } from '@shutu/contracts';
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

/** sys_config key recording that this store has had its default permission-group category considered. */
export const DEFAULT_PERM_TYPE_KEY = 'permDefaultTypeSeeded';

/**
 * The default permission-group category (默认分类), once per store (docs/permissions.md): a group
 * needs a category, and a fresh install had none. Added when the store has no category at all, on
 * a new store and on an existing one that had none; either way the store is marked in sys_config,
 * so a category the administrator deletes later stays deleted. Two processes starting together
 * serialise on the sys_config key.
 */
export async function seedDefaultPermType(db: Kysely<Database>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('sysConfig')
      .values({ key: DEFAULT_PERM_TYPE_KEY, value: '1' })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marked) return false;
    const anyType = await trx.selectFrom('permType').select('id').limit(1).executeTakeFirst();
    if (anyType) return false;
    await trx.insertInto('permType').values({ typeName: DEFAULT_PERM_TYPE_NAME, sortNum: 0 }).execute();
    return true;
  });
}

/**
 * First start: the administrator and a small organisation to try things with; every start: the
 * default permission-group category if this store never had it considered. Idempotent.
 */
export async function seed(db: Kysely<Database>, options: SeedOptions = {}): Promise<SeedResult> {
  await seedDefaultPermType(db);
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
