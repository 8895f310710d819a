import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Checkbox, Form, Input, InputNumber, Space, Switch, Table } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ALERT_REQUEST_FREQ_MIN, ALERT_WAYS, NOTIFY_TYPE_LABELS, alertBodySchema, alertEditRoute, alertSaveProblem, type AlertWay } from '@shutu/contracts';
import { PageContainer } from '../../../shared/PageContainer.tsx';
import { notifyError, notifySuccess, notifyWarning } from '../../../shared/notify.ts';
import { fetchAlert, previewAlert, saveAlert } from '../api.ts';
import { alm } from '../messages.ts';
import { bodyOf, draftOf, emptyDraft, type AlertDraft } from './draft.ts';
import { FieldsSection, useAlertFields } from './FieldsSection.tsx';
import { TimeSection } from './TimeSection.tsx';
import { SmsPushSection } from './SmsPushSection.tsx';
import { FiltersSection } from './FiltersSection.tsx';
import { NoticeSection } from './NoticeSection.tsx';
import { RecipientsField } from './RecipientsField.tsx';

const WAY_LABELS: Record<AlertWay, string> = { ...NOTIFY_TYPE_LABELS, sms: '短信' };

/** 预警编辑 (/newbi/warning/edit?id=): without id a new alert; after the first save the route is replaced with the new id (spec 3 §2, §4). */
export default function AlertEditorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.get('id')) || null;
  const [draft, setDraft] = useState<AlertDraft>(emptyDraft);
  const loaded = useQuery({ queryKey: ['alert', 'detail', id], queryFn: () => fetchAlert(id!), enabled: id !== null });
  // The loaded alert becomes the draft once per alert (state adjusted while rendering, not in an effect).
  const [loadedId, setLoadedId] = useState<number | null>(null);
  if (loaded.data && loaded.data.id !== loadedId) {
    setLoadedId(loaded.data.id);
    setDraft(draftOf(loaded.data));
  }
  const fields = useAlertFields(draft.cubeDataId);

  const save = useMutation({
    mutationFn: () => saveAlert(bodyOf(draft)),
    onSuccess: (r) => {
      notifySuccess(r.msg);
      setDraft(draftOf(r.data));
      if (!id) void navigate(alertEditRoute(r.data.id), { replace: true });
    },
    onError: notifyError,
  });
  const preview = useMutation({
    mutationFn: () =>
      previewAlert({
        cubeDataId: draft.cubeDataId!,
        columnList: draft.columnJson,
        filterList: draft.filterJson,
        filterRelation: draft.filterRelationJson,
        filterTimeJson: draft.filterTimeJson,
      }),
    onError: notifyError,
  });
  const onSave = () => {
    // The spec's rules in the editor's order, before asking the server (which checks them again).
    // SMS mapping needs the template's variables, which the server checks (请完成【x】字段参数).
    const problem = alertSaveProblem(alertBodySchema.parse({ ...bodyOf(draft), checkedWays: draft.checkedWays.filter((w) => w !== 'sms') }), null);
    if (problem) return notifyWarning(problem);
    save.mutate();
  };
  const result = preview.data?.data;

  return (
    <PageContainer
      title={alm.pageEdit}
      extra={
        <Space>
          <Link to="/newbi/warning">
            <Button>{alm.back}</Button>
          </Link>
          <Button onClick={() => preview.mutate()} loading={preview.isPending} disabled={!draft.cubeDataId} data-testid="alert-preview">
            {alm.preview}
          </Button>
          <Button type="primary" onClick={onSave} loading={save.isPending} data-testid="alert-save">
            {alm.save}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small">
          <Form layout="horizontal" labelCol={{ flex: '140px' }}>
            <Form.Item label={alm.name} required>
              <Input value={draft.name} maxLength={100} onChange={(e) => setDraft({ ...draft, name: e.target.value })} data-testid="alert-name" />
            </Form.Item>
            <Form.Item label={alm.requestFreq} required>
              <InputNumber min={ALERT_REQUEST_FREQ_MIN} value={draft.requestFreq} onChange={(v) => setDraft({ ...draft, requestFreq: v })} />
            </Form.Item>
            <RecipientsField draft={draft} onChange={setDraft} />
            <Form.Item label={alm.enabled}>
              <Switch checked={draft.enableStatus === 1} onChange={(on) => setDraft({ ...draft, enableStatus: on ? 1 : 0 })} />
            </Form.Item>
          </Form>
        </Card>
        <Card size="small" title={alm.fields}>
          <Form layout="horizontal" labelCol={{ flex: '140px' }}>
            <FieldsSection draft={draft} onChange={setDraft} fields={fields} />
            <FiltersSection draft={draft} onChange={setDraft} fields={fields} />
            <TimeSection draft={draft} onChange={setDraft} fields={fields} />
          </Form>
        </Card>
        <Card size="small" title={alm.ways}>
          <Form layout="horizontal" labelCol={{ flex: '140px' }}>
            <Form.Item label={alm.ways}>
              <Checkbox.Group
                value={draft.checkedWays}
                options={ALERT_WAYS.filter((w) => w !== 'sms').map((w) => ({ label: WAY_LABELS[w], value: w }))}
                onChange={(ways) => setDraft({ ...draft, checkedWays: ways as AlertWay[] })}
              />
            </Form.Item>
            <SmsPushSection draft={draft} onChange={setDraft} fields={fields} />
            <Form.Item label={alm.content} extra={alm.contentHint}>
              <Input.TextArea
                rows={2}
                value={draft.messageDynamicContent}
                onChange={(e) => setDraft({ ...draft, messageDynamicContent: e.target.value })}
                data-testid="alert-content"
              />
            </Form.Item>
            <NoticeSection draft={draft} onChange={setDraft} />
          </Form>
        </Card>
        {result && (
          <Card size="small" title={`${alm.preview}（${result.timeValue.join(' 至 ')}）`}>
            <Table
              rowKey={(_, i) => String(i)}
              size="small"
              pagination={false}
              dataSource={result.dataList}
              columns={result.fieldDict.map((f) => ({ title: f.title, dataIndex: f.alias, key: f.alias }))}
              data-testid="alert-preview-table"
            />
          </Card>
        )}
      </Space>
    </PageContainer>
  );
}
