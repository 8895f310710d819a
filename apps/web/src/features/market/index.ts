/** The public face of the market feature. */
export { MarketTasksPage } from './MarketTasksPage.tsx';
export { mk as marketLabels } from './messages.ts';
