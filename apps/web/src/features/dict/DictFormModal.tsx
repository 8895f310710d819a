import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Modal, Radio, Row } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dictSaveSchema, type Dict, type DictSave } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { createDict, dictKeys, fetchDict, updateDict } from './api.ts';

/** What the modal edits: a new or existing parent, or a new or existing child of `parent`. */
export interface DictEditTarget {
  record?: Dict;
  parent?: Dict;
}

type Values = Omit<DictSave, 'parentId' | 'remark'> & { remark?: string | null };

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

function toValues(d: Dict): Values {
  return { code: d.code, dictKey: d.dictKey, dictValue: d.dictValue, sort: d.sort, isSealed: d.isSealed === 1 ? 1 : 0, remark: d.remark ?? '' };
}

export function titleOf(target: DictEditTarget): string {
  if (target.parent) return target.record ? t.dictEditChild : t.dictAddChild;
  return target.record ? t.dictEditParent : t.dictAddParent;
}

/** The body sent on save: a child keeps its parent's id and code; blank remarks become null. */
export function dictBody(target: DictEditTarget, v: Values): DictSave {
  return {
    parentId: target.parent?.id ?? target.record?.parentId ?? 0,
    code: (target.parent?.code ?? v.code).trim(),
    dictKey: v.dictKey,
    dictValue: v.dictValue.trim(),
    sort: v.sort,
    isSealed: v.isSealed,
    remark: v.remark?.trim() ? v.remark.trim() : null,
  };
}

export function DictFormModal({ target, onClose }: { target: DictEditTarget | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const editingId = target?.record?.id;
  const isChild = Boolean(target?.parent);

  // Refresh the edited row from the server (getDict) in case the table is stale.
  const fresh = useQuery({
    queryKey: dictKeys.one(editingId ?? 0),
    queryFn: () => fetchDict(editingId!),
    enabled: editingId !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
  useEffect(() => {
    if (fresh.data && target) form.setFieldsValue(toValues(fresh.data));
  }, [fresh.data, form, target]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = dictBody(target!, v);
      return editingId !== undefined ? updateDict(editingId, body) : createDict(body);
    },
    onSuccess: async () => {
      notifySuccess(msg.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  const initialValues: Partial<Values> = target?.record ? toValues(target.record) : { code: target?.parent?.code ?? '', isSealed: 0 };

  return (
    <Modal
      open={target !== null}
      title={target ? titleOf(target) : ''}
      width={640}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<Values> form={form} layout="vertical" clearOnDestroy initialValues={initialValues} onFinish={(v) => save.mutate(v)} className="dict-form">
          {dom}
        </Form>
      )}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label={t.dictCode} name="code" rules={zodRules(dictSaveSchema, 'code')}>
            <Input placeholder={t.dictCodePlaceholder} maxLength={64} readOnly={isChild} variant={isChild ? 'filled' : 'outlined'} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.dictValue} name="dictValue" rules={zodRules(dictSaveSchema, 'dictValue')}>
            <Input placeholder={t.dictValuePlaceholder} maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.dictKey} name="dictKey" rules={zodRules(dictSaveSchema, 'dictKey')}>
            <InputNumber placeholder={t.dictKeyPlaceholder} precision={0} min={INT_MIN} max={INT_MAX} className="full-width" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.dictSort} name="sort" rules={zodRules(dictSaveSchema, 'sort')}>
            <InputNumber placeholder={t.dictSortPlaceholder} precision={0} min={INT_MIN} max={INT_MAX} className="full-width" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t.dictSealed} name="isSealed" rules={zodRules(dictSaveSchema, 'isSealed')}>
            <Radio.Group
              options={[
                { label: t.no, value: 0 },
                { label: t.yes, value: 1 },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t.dictRemark} name="remark">
            <Input.TextArea placeholder={t.dictRemarkPlaceholder} maxLength={255} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Col>
      </Row>
    </Modal>
  );
}
