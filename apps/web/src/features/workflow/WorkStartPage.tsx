import { useState } from 'react';
import { Badge, Button, Card, Empty, Tabs } from 'antd';
import { FormOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
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
  const [paging, setPaging] = useState<Record<WorkListKind, { current: number; size: number }>>({
    todo: { current: 1, size: 10 },
    send: { current: 1, size: 10 },
    done: { current: 1, size: 10 },
  });
  const useList = (kind: WorkListKind) =>
    useQuery({
      queryKey: workflowKeys.list(kind, paging[kind].current, paging[kind].size),
      queryFn: () => fetchWorkList(kind, paging[kind].current, paging[kind].size),
      placeholderData: keepPreviousData,
    });
  const lists = { todo: useList('todo'), send: useList('send'), done: useList('done') };
  const tab = (kind: WorkListKind, label: string) => ({
    key: kind,
    label:
      kind === 'todo' ? (
        <Badge count={lists.todo.data?.total ?? 0} size="small" offset={[8, -2]}>
          {label}
        </Badge>
      ) : (
        label
      ),
    children: (
      <WorkTable
        kind={kind}
        page={lists[kind].data}
        loading={lists[kind].isLoading}
        onPage={(current, size) => setPaging((p) => ({ ...p, [kind]: { current, size } }))}
      />
    ),
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
