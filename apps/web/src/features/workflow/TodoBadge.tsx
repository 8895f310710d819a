import { Badge } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchTodoCount, workflowKeys } from './api.ts';

/** The side menu's to-do count beside 流程工作台 (refreshed every minute and after every decision). */
export function TodoBadge() {
  const count = useQuery({ queryKey: workflowKeys.todoCount, queryFn: fetchTodoCount, refetchInterval: 60_000 });
  return <Badge count={count.data ?? 0} size="small" aria-label={`待办 ${count.data ?? 0}`} />;
}
