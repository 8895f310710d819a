import { Card, Empty } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatMessage, WORK_START_PATH } from '@shutu/contracts';
import { formatDateTime } from '../../shared/time.ts';
import { fetchWorkList, workflowKeys } from './api.ts';
import { wk } from './messages.ts';
import { handlePath } from './WorkTable.tsx';
import './workflow.css';

const SHOWN = 5;

/** 首页's 我的待办 (docs/home.md, docs/workflow.md): the newest to-dos, each opening its approval page. Silent when the list cannot be read. */
export function HomeTodos() {
  const todo = useQuery({
    queryKey: workflowKeys.list('todo', 1, SHOWN),
    queryFn: () => fetchWorkList('todo', 1, SHOWN),
    staleTime: 0,
    refetchOnMount: 'always',
  });
  if (!todo.data) return null;
  const rows = todo.data.records;
  return (
    <Card
      size="small"
      className="work-home-todos"
      data-testid="home-todos"
      title={`${wk.todo}（${todo.data.total}）`}
      extra={<Link to={WORK_START_PATH}>{wk.page}</Link>}
    >
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={wk.todoEmpty} />
      ) : (
        <ul className="work-home-todo-list">
          {rows.map((r) => (
            <li key={r.taskId}>
              <Link to={handlePath(r)}>{formatMessage(wk.todoItem, { starter: r.starterName, process: r.processDefinitionName })}</Link>
              <span className="work-home-todo-meta">
                {r.activityName} · {formatDateTime(r.createTime, 'minute')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
