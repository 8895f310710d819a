import { useState } from 'react';
import { Button, Card, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, type TrackSite } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { createTrackSite, deleteTrackSite, fetchTrackSites, heatmapKeys, updateTrackSite } from './api.ts';
import { smt } from './messages.ts';
import { SiteFormModal, type SiteFormValues } from './SiteFormModal.tsx';

/** The one tag a site puts in its pages. */
export const trackerTag = (origin: string, writeKey: string) => `<script src="${origin}${API.heatmap.tracker}" data-write-key="${writeKey}" defer></script>`;

/** 网站与写入密钥 (administrators): the tracked sites, their keys and counters; add, edit, disable, delete. */
export function SitesPage() {
  const client = useQueryClient();
  const sites = useQuery({ queryKey: heatmapKeys.sites, queryFn: fetchTrackSites });
  const [editing, setEditing] = useState<TrackSite | null | 'new'>(null);
  const done = (text: string) => {
    notifySuccess(text);
    void client.invalidateQueries({ queryKey: heatmapKeys.sites });
  };
  const save = useMutation({
    mutationFn: (values: SiteFormValues) => (editing === 'new' || !editing ? createTrackSite(values) : updateTrackSite(editing.id, values)),
    onSuccess: () => {
      setEditing(null);
      done(smt.saved);
    },
    onError: notifyError,
  });
  const toggle = useMutation({
    mutationFn: (s: TrackSite) => updateTrackSite(s.id, { enabled: !s.enabled }),
    onSuccess: () => done(smt.saved),
    onError: notifyError,
  });
  const remove = useMutation({ mutationFn: (s: TrackSite) => deleteTrackSite(s.id), onSuccess: () => done(smt.removed), onError: notifyError });

  return (
    <PageContainer
      title={smt.page}
      description={smt.desc}
      extra={
        <Space>
          <Link to="/newbi/heatmap">{smt.back}</Link>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="site-add">
            {smt.add}
          </Button>
        </Space>
      }
    >
      <Card>
        <Table<TrackSite>
          rowKey="id"
          loading={sites.isLoading}
          dataSource={sites.data ?? []}
          pagination={false}
          scroll={{ x: 1200 }}
          expandable={{
            expandedRowRender: (s) => (
              <div data-testid={`site-snippet-${s.id}`}>
                <Typography.Paragraph type="secondary">{smt.snippetHelp}</Typography.Paragraph>
                <Typography.Paragraph copyable code>
                  {trackerTag(window.location.origin, s.writeKey)}
                </Typography.Paragraph>
              </div>
            ),
          }}
          columns={[
            { title: smt.siteName, dataIndex: 'siteName', width: 160, fixed: 'left' },
            {
              title: smt.writeKey,
              dataIndex: 'writeKey',
              width: 300,
              render: (k: string) => (
                <Typography.Text copyable code>
                  {k}
                </Typography.Text>
              ),
            },
            { title: smt.project, dataIndex: 'project', width: 110 },
            {
              title: smt.enabled,
              key: 'enabled',
              width: 90,
              render: (_, s) => (
                <Switch
                  checked={s.enabled}
                  checkedChildren={smt.on}
                  unCheckedChildren={smt.off}
                  loading={toggle.isPending && toggle.variables?.id === s.id}
                  onChange={() => toggle.mutate(s)}
                />
              ),
            },
            { title: smt.rateLimit, dataIndex: 'rateLimit', width: 130, align: 'right' },
            { title: smt.retentionDays, dataIndex: 'retentionDays', width: 90, align: 'right' },
            { title: smt.accepted, dataIndex: 'acceptedEvents', width: 110, align: 'right', render: (n: number) => n.toLocaleString('zh-CN') },
            { title: smt.invalid, key: 'invalid', width: 120, align: 'right', render: (_, s) => `${s.invalidBatches} / ${s.invalidEvents}` },
            { title: smt.limited, dataIndex: 'limitedBatches', width: 90, align: 'right' },
            { title: smt.lastEvent, dataIndex: 'lastEventTime', width: 170, render: (t: string | null) => (t ? formatDateTime(t) : smt.never) },
            {
              title: smt.actions,
              key: 'actions',
              width: 120,
              fixed: 'right',
              render: (_, s) => (
                <Space>
                  <Typography.Link onClick={() => setEditing(s)}>{smt.edit.slice(0, 2)}</Typography.Link>
                  <Popconfirm title={smt.removeConfirm(s.siteName)} okText={smt.remove} cancelText={smt.cancel} onConfirm={() => remove.mutate(s)}>
                    <Typography.Link type="danger">{smt.remove}</Typography.Link>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <SiteFormModal
        open={editing !== null}
        site={editing === 'new' ? null : editing}
        saving={save.isPending}
        onSave={(v) => save.mutate(v)}
        onCancel={() => setEditing(null)}
      />
    </PageContainer>
  );
}
