import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.ts';

/** Versioned migrations, applied in key order at start. Never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
};
