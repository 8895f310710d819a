/** The public face of the orderexport feature. */
export { OrderExportPage } from './OrderExportPage.tsx';
export { om as orderExportLabels } from './messages.ts';
