/** The alert feature's public face (issue 19; docs/alerts.md): the pages the shell routes to. */
export { AlertListPage } from './AlertListPage.tsx';
export { AlertLogPage } from './AlertLogPage.tsx';
export { AlertSettingsPage } from './settings/AlertSettingsPage.tsx';
export { alm as alertLabels } from './messages.ts';
