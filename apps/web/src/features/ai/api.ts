import {
  AI_PATHS,
  type AiFormulaRequest,
  type AiFormulaResult,
  type AiLog,
  type AiSettings,
  type AiSqlRequest,
  type AiSqlResult,
  type AiStatus,
} from '@shutu/contracts';
import { http } from '../../shared/api.ts';

export const aiKeys = { status: ['ai', 'status'] as const, settings: ['ai', 'settings'] as const, logs: ['ai', 'logs'] as const };

export const fetchAiStatus = () => http.get<AiStatus>(AI_PATHS.status);
export const generateSql = (body: AiSqlRequest) => http.post<AiSqlResult>(AI_PATHS.sql, body);
export const generateFormula = (body: AiFormulaRequest) => http.post<AiFormulaResult>(AI_PATHS.formula, body);
/** Records that the user kept the result; a failure here must not stand in the user's way. */
export const acceptAi = (logId: number) => http.post<null>(AI_PATHS.accept, { logId }).catch(() => null);
export const fetchAiSettings = () => http.get<AiSettings>(AI_PATHS.settings);
export const saveAiSettings = (settings: AiSettings) => http.put<AiSettings>(AI_PATHS.settings, settings);
export const fetchAiLogs = () => http.get<AiLog[]>(AI_PATHS.logs);
