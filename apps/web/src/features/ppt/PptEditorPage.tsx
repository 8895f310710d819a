import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, InputNumber, Result, Spin, Switch } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { PPT_INTERVAL, PPT_NAME_MAX_LENGTH, pptRoutes, pptSaveSchema, type PptDetail, type PptVisual } from '@shutu/contracts';
import { notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { fetchPptDetail, pptKeys, savePpt } from './api.ts';
import { BoardPicker, SelectedVisuals } from './editor-parts.tsx';
import { MONTH_FORMAT } from './FavouriteArchiveDialog.tsx';
import { pm, pt } from './messages.ts';
import './ppt.css';

interface Values {
  ppName: string;
  month: Dayjs | null;
  autoPlay: boolean;
  interval: number;
}

function EditorForm({ id, detail }: { id: number | null; detail: PptDetail | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [visuals, setVisuals] = useState<PptVisual[]>(detail?.visualList ?? []);
  const autoPlay = Form.useWatch('autoPlay', form);
  const save = useMutation({
    mutationFn: (v: Values) =>
      savePpt({
        id,
        ppName: v.ppName.trim(),
        ppMonth: v.month ? v.month.format(MONTH_FORMAT) : null,
        visualIds: visuals.map((x) => x.id),
        visualType: 0,
        settings: { autoPlay: v.autoPlay, interval: v.interval },
      }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      await queryClient.invalidateQueries({ queryKey: pptKeys.all });
      void navigate(pptRoutes.list);
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const submit = (v: Values) => {
    if (visuals.length === 0) {
      notifyWarning(pm.visualsRequired);
      return;
    }
    save.mutate(v);
  };
  const initial: Values = {
    ppName: detail?.detail.ppName ?? '',
    month: detail?.detail.ppMonth ? dayjs(detail.detail.ppMonth, MONTH_FORMAT) : null,
    autoPlay: detail?.detail.settings.autoPlay ?? false,
    interval: detail?.detail.settings.interval ?? PPT_INTERVAL.default,
  };

  return (
    <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={submit} className="ppt-editor" data-testid="ppt-editor">
      <header className="ppt-editor-head">
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(pptRoutes.list)}>
          {pt.back}
        </Button>
        <h1 className="ppt-editor-title">{id ? pt.editorEdit : pt.editorNew}</h1>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="ppt-save">
          {pt.save}
        </Button>
      </header>
      <div className="ppt-editor-body">
        <Card size="small" title={pt.basic} className="ppt-editor-side">
          <Form.Item label={pt.name} name="ppName" rules={zodRules(pptSaveSchema, 'ppName')}>
            <Input placeholder={pt.namePlaceholder} maxLength={PPT_NAME_MAX_LENGTH} autoComplete="off" data-testid="ppt-name-input" />
          </Form.Item>
          <Form.Item label={pt.month} name="month">
            <DatePicker picker="month" format={MONTH_FORMAT} placeholder={pt.monthPlaceholder} style={{ width: '100%' }} data-testid="ppt-month" />
          </Form.Item>
          <div className="ppt-editor-subtitle">{pt.playSettings}</div>
          <Form.Item label={pt.autoPlay} name="autoPlay" valuePropName="checked">
            <Switch data-testid="ppt-autoplay" />
          </Form.Item>
          <Form.Item
            label={pt.interval}
            name="interval"
            extra={pt.intervalHint}
            rules={[{ required: true, type: 'number', min: PPT_INTERVAL.min, max: PPT_INTERVAL.max, message: pt.intervalHint }]}
          >
            <InputNumber
              min={PPT_INTERVAL.min}
              max={PPT_INTERVAL.max}
              precision={0}
              disabled={!autoPlay}
              style={{ width: '100%' }}
              data-testid="ppt-interval"
            />
          </Form.Item>
        </Card>
        <SelectedVisuals visuals={visuals} onChange={setVisuals} />
        <BoardPicker selected={visuals} onAdd={(v) => setVisuals((list) => (list.some((x) => x.id === v.id) ? list : [...list, v]))} />
      </div>
    </Form>
  );
}

/**
 * The slideshow editor (/newbi/ppt/edit?id=, full screen): name (请填写幻灯片名称), month,
 * play settings, and the ordered dashboards picked from 可视化大屏 and 自助报表.
 */
export default function PptEditorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  const detail = useQuery({ queryKey: pptKeys.detail(id ?? 0), queryFn: () => fetchPptDetail(id!), enabled: id !== null, staleTime: 0 });

  if (id !== null && detail.isPending) return <Spin className="ppt-editor-loading" fullscreen />;
  if (id !== null && (detail.isError || !detail.data?.detail.editable)) {
    return (
      <Result
        status="warning"
        title={pt.notFound}
        extra={
          <Button type="primary" onClick={() => void navigate(pptRoutes.list)}>
            {pt.back}
          </Button>
        }
      />
    );
  }
  return <EditorForm key={id ?? 'new'} id={id} detail={detail.data ?? null} />;
}
