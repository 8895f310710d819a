import { useCallback, useEffect, useState, type DragEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Form, Input, Modal, Radio, Space, Spin, Table } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AUDIENCE_REQUEST_FREQ_LABELS, AUDIENCE_REQUEST_FREQS, type AudiencePreviewResult } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { audienceKeys, fetchAudience, fetchAudienceCategories, previewAudience, saveAudience } from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';
import { DatasetCard } from './DatasetCard.tsx';
import { DatasetPanel, DRAG_TYPE, type DragSource } from './DatasetPanel.tsx';
import { addCard, checkCards, fromRules, newCard, toRules, type CardState } from './editor-model.ts';
import { aum, fmt } from './messages.ts';
import { AUDIENCE_LIST_PATH } from './paths.ts';
import './audience.css';

interface FormValues {
  groupName: string;
  classifyId: number;
  requestFreq: 0 | 1 | 2 | 3;
  remark: string;
}

/**
 * 数据集人群 editor (spec 3 §2 "Audience editor (dataset-driven)"; optional ?id=): datasets on the
 * left are dropped into the cards area; the form holds name, category, update frequency and remark.
 * Add becomes update after the first save (the address gets the new id and the page re-reads it after 500 ms).
 */
export function AudienceEditorPage() {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [cards, setCards] = useState<CardState[]>([]);
  const [over, setOver] = useState(false);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<AudiencePreviewResult | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const detail = useQuery({ queryKey: audienceKeys.detail(id ?? 0), queryFn: () => fetchAudience(id!), enabled: id !== null, retry: false });
  useQuery({ queryKey: audienceKeys.categories, queryFn: fetchAudienceCategories });

  // The cards follow the loaded audience (set while rendering, once per answer).
  const [loaded, setLoaded] = useState<typeof detail.data>(undefined);
  if (detail.data && detail.data !== loaded) {
    setLoaded(detail.data);
    setCards(fromRules(detail.data.defineRule));
  }
  useEffect(() => {
    if (!detail.data) return;
    form.setFieldsValue({
      groupName: detail.data.groupName,
      classifyId: detail.data.classifyId ?? undefined,
      requestFreq: detail.data.requestFreq as 0,
      remark: detail.data.remark,
    });
  }, [detail.data, form]);
  useEffect(() => {
    if (detail.error) notifyError(detail.error);
  }, [detail.error]);

  const pick = useCallback(
    (source: DragSource) => {
      const card = source.kind === 'cube' ? newCard({ cubeId: source.id, cubeName: source.name }) : newCard({ audienceId: source.id, cubeName: source.name });
      const next = addCard(cards, card);
      if (typeof next === 'string') notifyWarning(next);
      else setCards(next);
    },
    [cards],
  );
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const raw = e.dataTransfer.getData(DRAG_TYPE);
    if (raw) pick(JSON.parse(raw) as DragSource);
  };

  const runPreview = async (only?: CardState) => {
    const list = only ? [{ ...only, connectType: 'and' as const }] : cards;
    const problem = checkCards(list, 'preview');
    if (problem) return notifyWarning(problem);
    setPreviewing(true);
    try {
      setPreview(await previewAudience(toRules(list)));
    } catch (error) {
      notifyError(error);
    } finally {
      setPreviewing(false);
    }
  };

  const save = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const problem = checkCards(cards, 'save');
    if (problem) return notifyWarning(problem);
    setSaving(true);
    try {
      const r = await saveAudience({ ...values, id, defineRule: toRules(cards) });
      notifySuccess(r.msg);
      await queryClient.invalidateQueries({ queryKey: audienceKeys.all });
      setTimeout(() => setParams({ id: String(r.data) }, { replace: true }), 500);
    } catch (error) {
      notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  const columns = (preview?.fieldDict ?? []).map((f) => ({ title: f.title, dataIndex: f.alias, key: f.alias }));
  return (
    <PageContainer
      title={aum.pageEdit}
      extra={
        <Space>
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(AUDIENCE_LIST_PATH)}>
            {aum.back}
          </Button>
          <Button onClick={() => runPreview()} loading={previewing} data-testid="audience-preview">
            {aum.preview}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} onClick={save} loading={saving} data-testid="audience-save">
            {aum.save}
          </Button>
        </Space>
      }
    >
      <Spin spinning={detail.isLoading}>
        <div className="audience-editor">
          <DatasetPanel onPick={pick} />
          <div className="audience-main">
            <Form form={form} layout="inline" initialValues={{ requestFreq: 0, remark: '' }} style={{ marginBottom: 16, rowGap: 12 }}>
              <Form.Item name="groupName" label={aum.name} rules={[{ required: true, whitespace: true, message: aum.nameRequired }]}>
                <Input maxLength={100} style={{ width: 200 }} data-testid="audience-name" />
              </Form.Item>
              <Form.Item name="classifyId" label={aum.category} rules={[{ required: true, message: aum.categoryRequired }]}>
                <CategorySelect />
              </Form.Item>
              <Form.Item name="requestFreq" label={aum.requestFreq}>
                <Radio.Group options={AUDIENCE_REQUEST_FREQS.map((f) => ({ value: f, label: AUDIENCE_REQUEST_FREQ_LABELS[f] }))} />
              </Form.Item>
              <Form.Item name="remark" label={aum.remark}>
                <Input maxLength={500} style={{ width: 240 }} />
              </Form.Item>
            </Form>
            <div
              className={`audience-drop${over ? ' over' : ''}`}
              data-testid="audience-drop"
              // Capture: a dataset dropped over a card's filter tree is still ours (the tree handles only its own items).
              onDragOverCapture={(e) => {
                if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
                e.preventDefault();
                setOver(true);
              }}
              onDragLeave={() => setOver(false)}
              onDropCapture={(e) => {
                if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
                e.stopPropagation();
                drop(e);
              }}
            >
              {cards.length === 0 && <div className="audience-drop-hint">{aum.dropHere}</div>}
              {cards.map((card, i) => (
                <DatasetCard
                  key={card.key}
                  card={card}
                  index={i}
                  onChange={(c) => setCards((cs) => cs.map((x) => (x.key === c.key ? c : x)))}
                  onRemove={() => setCards((cs) => cs.filter((x) => x.key !== card.key))}
                  onPreview={() => runPreview(card)}
                />
              ))}
            </div>
          </div>
        </div>
      </Spin>
      <Modal title={aum.previewTitle} open={preview !== null} onCancel={() => setPreview(null)} footer={null} width={760}>
        {preview && (
          <>
            <div data-testid="audience-preview-total">{fmt(aum.previewTotal, { total: preview.total, shown: preview.dataList.length })}</div>
            <Table
              size="small"
              rowKey={(r) => String(r.phone)}
              columns={columns}
              dataSource={preview.dataList}
              pagination={{ pageSize: 10 }}
              data-testid="audience-preview-table"
            />
          </>
        )}
      </Modal>
    </PageContainer>
  );
}
