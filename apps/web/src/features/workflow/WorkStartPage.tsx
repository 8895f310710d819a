import { Badge, Button, Card, Empty, Tabs } from 'antd';
import { FormOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatMessage, LEAVE_START_PATH } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { fetchStartable, fetchWorkList, workflowKeys, type WorkListKind } from './api.ts';
import { wk } from './messages.ts';
import { WorkTable } from './WorkTable.tsx';
import './workflow.css';

/** /work/start (spec 3 §2): processes the user may start, their to-dos, their requests and the tasks they completed. */
export function WorkStartPage() {
  const navigate = useNavigate();
  const startable = useQuery({ queryKey: workflowKeys.startable, queryFn: fetchStartable });
  const lists = {
    todo: useQuery({ queryKey: workflowKeys.list('todo'), queryFn: () => fetchWorkList('todo') }),
    send: useQuery({ queryKey: workflowKeys.list('send'), queryFn: () => fetchWorkList('send') }),
    done: useQuery({ queryKey: workflowKeys.list('done'), queryFn: () => fetchWorkList('done') }),
  };
  const tab = (kind: WorkListKind, label: string) => ({
    key: kind,
    label:
      kind === 'todo' ? (
        <Badge count={lists.todo.data?.length ?? 0} size="small" offset={[8, -2]}>
          {label}
        </Badge>
      ) : (
        label
      ),
    children: <WorkTable kind={kind} rows={lists[kind].data ?? []} loading={lists[kind].isLoading} />,
  });
  return (
    <PageContainer title={wk.page} description={wk.pageDesc}>
      <section className="work-start-section" aria-label={wk.startable}>
        <h2 className="work-section-title">{wk.startable}</h2>
        <div className="work-process-cards">
          {(startable.data ?? []).map((p) => (
            <Card key={p.processDefinitionId} size="small" className="work-process-card">
              <div className="work-process-name">
                <FormOutlined /> {p.name}
              </div>
              <div className="work-process-meta">{formatMessage(wk.version, { version: p.version })}</div>
              <Button
                type="primary"
                size="small"
                onClick={() => void navigate(`${LEAVE_START_PATH}?processDefinitionId=${encodeURIComponent(p.processDefinitionId)}`)}
              >
                {wk.start}
              </Button>
            </Card>
          ))}
          {startable.data?.length === 0 && <Empty description={wk.startableEmpty} />}
        </div>
      </section>
      <Tabs items={[tab('todo', wk.todo), tab('send', wk.send), tab('done', wk.done)]} />
    </PageContainer>
  );
}
