import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Avatar, Button, Card, Col, Descriptions, Empty, Modal, Row, Space, Tag, Typography } from 'antd';
import { WechatOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataTask } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { formatDateTime } from '../../shared/time.ts';
import { cdpKeys, fetchJoin, fetchTasks } from './api.ts';
import { cm } from './messages.ts';
import { NewAuthDialog } from './NewAuthDialog.tsx';
import { TaskCard } from './TaskCard.tsx';
import { CycleDialog, PreviewDialog } from './TaskDialogs.tsx';

/** 接入信息 (/cdp/join/info?id=): the app, its authorisation and one data-configuration card per interface. */
export function JoinInfoPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const client = useQueryClient();
  const [pulling, setPulling] = useState(false);
  const app = useQuery({ queryKey: cdpKeys.join(id), queryFn: () => fetchJoin(id), enabled: id > 0 });
  const tasks = useQuery({
    queryKey: cdpKeys.tasks(id),
    queryFn: () => fetchTasks(id),
    enabled: id > 0,
    // While a pull someone asked for runs, look again until it has logged.
    refetchInterval: (q) => (q.state.dataUpdateCount > 0 && pulling ? 2000 : false),
  });
  const [cycle, setCycle] = useState<DataTask | null>(null);
  const [preview, setPreview] = useState<DataTask | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);
  const reload = () => void client.invalidateQueries({ queryKey: cdpKeys.tasks(id) });
  if (!id || app.isError) return <Empty description={cm.appNotFound} />;
  const a = app.data;
  return (
    <PageContainer title={cm.pageInfo}>
      <Card loading={app.isLoading} style={{ marginBottom: 16 }}>
        {a && (
          <Space align="start" size="large">
            <Avatar src={a.appIcon} icon={<WechatOutlined />} size={64} shape="square" />
            <Descriptions column={2} size="small" title={a.appName}>
              <Descriptions.Item label={cm.platform}>{a.platformName}</Descriptions.Item>
              <Descriptions.Item label={cm.joinType}>{a.joinType}</Descriptions.Item>
              <Descriptions.Item label={cm.authStatus}>
                {a.status === 1 ? <Tag color="success">{cm.authorised}</Tag> : <Tag>{cm.notAuthorised}</Tag>}
              </Descriptions.Item>
              <Descriptions.Item label={cm.authTime}>{a.authTime ? formatDateTime(a.authTime) : '- -'}</Descriptions.Item>
              <Descriptions.Item label={cm.signature} span={2}>
                {a.signature}
              </Descriptions.Item>
            </Descriptions>
            <Space direction="vertical">
              <Button type="primary" onClick={() => setAuthOpen(true)}>
                {cm.reAuthorise}
              </Button>
              <Button danger onClick={() => setHelpOpen(true)}>
                {cm.deleteAuth}
              </Button>
            </Space>
          </Space>
        )}
      </Card>
      <Typography.Title level={5}>{cm.dataConfig}</Typography.Title>
      <Row gutter={[16, 16]}>
        {(tasks.data?.records ?? []).map((t) => (
          <Col key={t.id} xs={24} md={12} xl={8}>
            <TaskCard
              task={t}
              onCycle={() => setCycle(t)}
              onPreview={() => setPreview(t)}
              onPulled={() => {
                setPulling(true);
                setTimeout(() => setPulling(false), 20_000);
              }}
            />
          </Col>
        ))}
      </Row>
      {cycle && <CycleDialog task={cycle} onClose={() => setCycle(null)} onSaved={reload} />}
      {preview && <PreviewDialog task={preview} onClose={() => setPreview(null)} />}
      <Modal
        title={cm.deleteAuthTitle}
        open={helpOpen}
        onCancel={() => setHelpOpen(false)}
        onOk={() => setHelpOpen(false)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        {cm.deleteAuthHelp.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </Modal>
      {a && <NewAuthDialog open={authOpen} platformId={a.platformDictId} onClose={() => setAuthOpen(false)} />}
    </PageContainer>
  );
}
