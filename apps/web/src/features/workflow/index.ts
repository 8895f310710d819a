/** The public face of the workflow feature. */
export { WorkStartPage } from './WorkStartPage.tsx';
export { LeaveStartPage } from './LeaveStartPage.tsx';
export { LeaveHandlePage } from './LeaveHandlePage.tsx';
export { TodoBadge } from './TodoBadge.tsx';
export { HomeTodos } from './HomeTodos.tsx';
export { wk as workflowLabels } from './messages.ts';
