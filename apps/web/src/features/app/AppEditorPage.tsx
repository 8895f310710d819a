import { useEffect, useState } from 'react';
import { Button, Card, Col, Form, Input, Radio, Result, Row, Space, Spin, Switch } from 'antd';
import { ArrowLeftOutlined, MobileOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_WATERMARK_TEXT, type AppDetail, type AppMenu, type AppSave } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { appKeys, fetchApp, saveApp } from './api.ts';
import { MenuPanel } from './MenuPanel.tsx';
import { am } from './messages.ts';
import { APP_LIST_PATH, mobileAppPath } from './paths.ts';
import './app.css';

type Values = Omit<AppSave, 'appId' | 'waterMarkStatus' | 'publishStatus'> & { waterMark: boolean; published: boolean };

/** 编辑应用 (spec 1 §2.12): reads query id; the app's fields, then its two-level menu tree. */
export default function AppEditorPage() {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id') ?? 0) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const detail = useQuery({ queryKey: appKeys.detail(id), queryFn: () => fetchApp(id), enabled: id > 0, staleTime: 0 });
  // The menus as last saved or dragged here; the loaded ones until then.
  const [edited, setEdited] = useState<{ id: number; menus: AppMenu[] } | null>(null);
  const menus = edited?.id === id ? edited.menus : (detail.data?.menus ?? []);

  useEffect(() => {
    const app = detail.data;
    form.setFieldsValue(
      app
        ? {
            ...app,
            appIcon: app.appIcon ?? '',
            appDescription: app.appDescription ?? '',
            waterMark: app.waterMarkStatus === 1,
            published: app.publishStatus === 1,
          }
        : { appName: '', menuShowType: '1', waterMark: false, waterMarkText: DEFAULT_WATERMARK_TEXT, published: false },
    );
  }, [detail.data, form]);

  const save = useMutation({
    mutationFn: (v: Values) =>
      saveApp({
        appId: id || undefined,
        appName: v.appName,
        appIcon: v.appIcon,
        appDescription: v.appDescription,
        menuShowType: v.menuShowType,
        waterMarkStatus: v.waterMark ? 1 : 0,
        waterMarkText: v.waterMarkText,
        publishStatus: v.published ? 1 : 0,
      }),
    onSuccess: (result) => {
      notifySuccess(result.msg || am.saved);
      queryClient.setQueryData<AppDetail>(appKeys.detail(result.data.appId), result.data);
      void queryClient.invalidateQueries({ queryKey: appKeys.list });
      if (!id) setParams({ id: String(result.data.appId) }, { replace: true });
    },
    onError: notifyError,
  });

  const watermarkOn = Form.useWatch('waterMark', form);
  if (id && detail.isLoading) return <Spin />;
  if (id && detail.error) return <Result status="warning" title={(detail.error as Error).message} />;
  return (
    <PageContainer
      title={id ? am.pageEdit : am.newApp}
      extra={
        <Space>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(APP_LIST_PATH)}>
            {am.back}
          </Button>
          {id > 0 && (
            <Button icon={<MobileOutlined />} href={mobileAppPath(id)} target="_blank">
              {am.preview}
            </Button>
          )}
        </Space>
      }
    >
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card title={am.pageEdit}>
            <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} data-testid="app-form">
              <Form.Item label={am.appName} name="appName" rules={[{ required: true, whitespace: true, message: am.nameRequired }]}>
                <Input data-testid="app-name" maxLength={50} />
              </Form.Item>
              <Form.Item label={am.appIcon} name="appIcon">
                <Input placeholder={am.appIconPlaceholder} maxLength={500} />
              </Form.Item>
              <Form.Item label={am.appDescription} name="appDescription">
                <Input.TextArea rows={2} maxLength={500} data-testid="app-description" />
              </Form.Item>
              <Form.Item label={am.menuShowType} name="menuShowType">
                <Radio.Group
                  data-testid="app-show-type"
                  options={[
                    { value: '1', label: am.showTop },
                    { value: '2', label: am.showPopup },
                  ]}
                />
              </Form.Item>
              <Space size="large">
                <Form.Item label={am.watermark} name="waterMark" valuePropName="checked">
                  <Switch data-testid="app-watermark" />
                </Form.Item>
                <Form.Item label={am.waterMarkText} name="waterMarkText">
                  <Input data-testid="app-watermark-text" maxLength={50} disabled={!watermarkOn} />
                </Form.Item>
              </Space>
              <Form.Item label={am.publishStatus} name="published" valuePropName="checked">
                <Switch data-testid="app-publish" checkedChildren={am.published} unCheckedChildren={am.unpublished} />
              </Form.Item>
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="app-save">
                {am.saveApp}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          {id > 0 ? <MenuPanel appId={id} menus={menus} onChange={(next) => setEdited({ id, menus: next })} /> : <Card title={am.menus}>{am.saveFirst}</Card>}
        </Col>
      </Row>
    </PageContainer>
  );
}
