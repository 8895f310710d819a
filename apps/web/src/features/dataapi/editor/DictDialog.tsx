import { useState } from 'react';
import { App, Button, Input, Modal, Typography } from 'antd';
import { BookOutlined } from '@ant-design/icons';
import { errorText } from '../../../shared/notify.ts';
import { saveApiDict } from '../api.ts';
import { am } from '../messages.ts';
import { dictTree, rowsOf } from '../model.ts';

/**
 * 保存为枚举字典 (spec 2 §2, §5): needs a preview first (请先预览) and a name (请输入字典名); the
 * whole answer's ID, VALUE and PID columns become the tree saved as keyCode + content.
 */
export function DictDialog({ previewData, apiId }: { previewData: unknown; apiId: number | null }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const start = () => {
    if (previewData === undefined) {
      message.warning(am.previewFirst);
      return;
    }
    setOpen(true);
  };
  const save = async () => {
    if (!name.trim()) {
      message.warning(am.dictNameRequired);
      return;
    }
    setSaving(true);
    try {
      const content = JSON.stringify(dictTree(rowsOf(previewData) ?? []));
      message.success((await saveApiDict({ keyCode: name.trim(), content, apiId })).msg || am.saved);
      setOpen(false);
    } catch (e) {
      // The dialog stays open for another try (spec 2 §8).
      message.error(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button icon={<BookOutlined />} onClick={start} data-testid="dataapi-save-dict">
        {am.saveAsDict}
      </Button>
      <Modal open={open} title={am.dictTitle} onCancel={() => setOpen(false)} onOk={save} confirmLoading={saving} destroyOnHidden>
        <Typography.Paragraph type="secondary">{am.dictHint}</Typography.Paragraph>
        <Input placeholder={am.dictName} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} data-testid="dataapi-dict-name" />
      </Modal>
    </>
  );
}
