/** The public face of the cdp feature (connected platforms, issue 21). */
export { JoinListPage } from './JoinListPage.tsx';
export { JoinInfoPage } from './JoinInfoPage.tsx';
export { JoinLogPage } from './JoinLogPage.tsx';
export { JoinCallbackPage } from './JoinCallbackPage.tsx';
export { OfficialAccountsPage } from './OfficialAccountsPage.tsx';
export { FanListPage } from './FanListPage.tsx';
export { PlatformTypesPage } from './PlatformTypesPage.tsx';
export { cm as cdpLabels } from './messages.ts';
