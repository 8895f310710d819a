import { z } from 'zod';
import { zhCN } from './messages.ts';
import { requiredText } from './common.ts';

export const DEFAULT_SYSTEM_NAME = '数图';

export const systemConfigSchema = z.object({ systemName: requiredText(zhCN.systemNameRequired, 50) });
export type SystemConfig = z.infer<typeof systemConfigSchema>;
