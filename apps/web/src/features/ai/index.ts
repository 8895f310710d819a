/** The AI feature's public face: the panels other features mount (the SQL-view drawer, the computed-field dialog). */
export { AiSqlButton, AiSqlPanel } from './AiSqlPanel.tsx';
export { AiFormulaPanel } from './AiFormulaPanel.tsx';
export { aiKeys, fetchAiLogs, fetchAiSettings, saveAiSettings } from './api.ts';
