import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SMS_CATEGORIES, SMS_CATEGORY_LABELS, templateVariables, type SmsTemplate, type SmsTemplateSave } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../../shared/notify.ts';
import { deleteSmsTemplate, fetchSmsTemplates, saveSmsTemplate } from '../api.ts';
import { alm } from '../messages.ts';

const KEY = ['alert', 'sms-templates'];

/** 短信模板 (spec 3 §3 "SMS template"): name, content with `${var}` variables (the parameters follow from it), provider category. */
export function SmsTemplatesTab() {
  const { modal } = App.useApp();
  const client = useQueryClient();
  const templates = useQuery({ queryKey: KEY, queryFn: fetchSmsTemplates });
  const [editing, setEditing] = useState<SmsTemplateSave | null>(null);
  const save = useMutation({
    mutationFn: saveSmsTemplate,
    onSuccess: (r) => {
      notifySuccess(r.msg);
      setEditing(null);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (t: SmsTemplate) => deleteSmsTemplate(t.id),
    onSuccess: (r) => {
      notifySuccess(r.msg);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: notifyError,
  });
  const columns: TableColumnsType<SmsTemplate> = [
    { title: alm.templateName, dataIndex: 'templateName', width: 180 },
    { title: alm.templateContent, dataIndex: 'templateContent' },
    {
      title: alm.templateParams,
      key: 'params',
      width: 220,
      render: (_, t) => templateVariables(t.templateContent).map((v) => <Tag key={v}>{v}</Tag>),
    },
    { title: alm.category, key: 'category', width: 100, render: (_, t) => SMS_CATEGORY_LABELS[t.category] },
    {
      title: alm.actions,
      key: 'actions',
      width: 130,
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(t)}>
            {alm.edit}
          </Button>
          <Button type="link" size="small" danger onClick={() => modal.confirm({ title: alm.confirmDeleteTemplate, onOk: () => remove.mutateAsync(t) })}>
            {alm.delete}
          </Button>
        </Space>
      ),
    },
  ];
  const variables = editing ? templateVariables(editing.templateContent ?? '') : [];
  return (
    <>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        style={{ marginBottom: 12 }}
        onClick={() => setEditing({ templateName: '', templateContent: '', category: 'aliyun' })}
        data-testid="sms-template-add"
      >
        {alm.addTemplate}
      </Button>
      <Table<SmsTemplate> rowKey="id" size="middle" loading={templates.isFetching} columns={columns} dataSource={templates.data ?? []} pagination={false} />
      <Modal
        open={editing !== null}
        title={editing?.id ? alm.edit : alm.addTemplate}
        okText={alm.save}
        cancelText={alm.cancel}
        confirmLoading={save.isPending}
        okButtonProps={{ 'data-testid': 'sms-template-ok' }}
        onOk={() => editing && save.mutate({ ...editing, templateParams: variables.join(',') })}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        {editing && (
          <Form layout="vertical">
            <Form.Item label={alm.templateName} required>
              <Input
                value={editing.templateName}
                maxLength={100}
                onChange={(e) => setEditing({ ...editing, templateName: e.target.value })}
                data-testid="sms-template-name"
              />
            </Form.Item>
            <Form.Item label={alm.templateContent} required extra={alm.templateContentHint}>
              <Input.TextArea
                rows={3}
                value={editing.templateContent}
                maxLength={1000}
                onChange={(e) => setEditing({ ...editing, templateContent: e.target.value })}
                data-testid="sms-template-content"
              />
            </Form.Item>
            <Form.Item label={alm.templateParams}>
              <Space size={4} wrap data-testid="sms-template-params">
                {variables.length === 0 ? alm.never : variables.map((v) => <Tag key={v}>{v}</Tag>)}
              </Space>
            </Form.Item>
            <Form.Item label={alm.category}>
              <Select
                value={editing.category ?? 'aliyun'}
                options={SMS_CATEGORIES.map((c) => ({ label: SMS_CATEGORY_LABELS[c], value: c }))}
                onChange={(category) => setEditing({ ...editing, category })}
              />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}
