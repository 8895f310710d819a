import { z } from 'zod';
import { pptSettingsSchema, type Ppt, type PptSettings } from '@shutu/contracts';
import type { Caller } from '../perm/index.ts';
import type { PptRow } from './repo.ts';

/** Pure helpers: stored JSON text ⇄ values, rows → API shapes. */

const idListSchema = z.array(z.number().int().positive());
const DEFAULT_SETTINGS: PptSettings = pptSettingsSchema.parse({});

function parseJson<T>(text: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export const parseVisualIds = (text: string): number[] => parseJson(text, idListSchema, []);
export const parseSettings = (text: string): PptSettings => parseJson(text, pptSettingsSchema, DEFAULT_SETTINGS);

/** Administrators and the creator may change and delete a record. */
export function mayEditPpt(caller: Caller, row: { createUserId: number | null }): boolean {
  return caller.isAdministrator || (row.createUserId !== null && row.createUserId === caller.userId);
}

export function toPpt(row: PptRow, caller: Caller): Ppt {
  return {
    id: row.id,
    ppName: row.ppName,
    ppMonth: row.ppMonth,
    cateId: row.cateId,
    visualIds: parseVisualIds(row.visualIds),
    settings: parseSettings(row.settings),
    visualType: row.visualType,
    sourceId: row.sourceId,
    publicStatus: row.publicStatus,
    createUserId: row.createUserId,
    createUserName: row.createUserName,
    createTime: new Date(row.createTime).toISOString(),
    updateTime: new Date(row.updateTime).toISOString(),
    editable: mayEditPpt(caller, row),
  };
}

/** The current month as yyyy-MM (server time), the default month of an archive. */
export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}
