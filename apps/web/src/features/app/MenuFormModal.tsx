import { useEffect } from 'react';
import { Form, Input, Modal, Select, Space } from 'antd';
import { DEFAULT_MENU_ICON, type AppMenu, type MenuSave } from '@shutu/contracts';
import { BoardSelect } from './BoardSelect.tsx';
import { MENU_ICONS } from './menu-icons.tsx';
import { am } from './messages.ts';

export interface MenuFormTarget {
  /** The menu being changed; undefined for a new one. */
  menu?: AppMenu;
  /** 0 for a first-level menu, else the parent's menuId (adding a child uses the parent's menuId). */
  parentId: number;
}

interface Values {
  menuName: string;
  menuIcon: string;
  visualId: number | null;
}

/**
 * Add or edit one menu: 请输入菜单名; a second-level menu must link a board (二级菜单需关联大屏).
 * The server checks the same and answers in the same words.
 */
export function MenuFormModal({
  target,
  saving,
  onSave,
  onClose,
}: {
  target: MenuFormTarget | null;
  saving: boolean;
  onSave: (body: MenuSave) => void;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue({
      menuName: target.menu?.menuName ?? '',
      menuIcon: target.menu?.menuIcon ?? DEFAULT_MENU_ICON,
      visualId: target.menu?.visualId ?? null,
    });
  }, [target, form]);
  const child = (target?.parentId ?? 0) > 0;
  const submit = async () => {
    const values = await form.validateFields();
    onSave({ menuId: target?.menu?.menuId, parentId: target?.parentId ?? 0, menuName: values.menuName, menuIcon: values.menuIcon, visualId: values.visualId });
  };
  return (
    <Modal
      open={!!target}
      title={target?.menu ? am.editMenu : am.newMenu}
      okText={am.ok}
      cancelText={am.cancel}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'menu-form-ok' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item label={am.menuName} name="menuName" rules={[{ required: true, whitespace: true, message: am.menuNameRequired }]}>
          <Input data-testid="menu-name" maxLength={30} />
        </Form.Item>
        <Form.Item label={am.menuIcon} name="menuIcon">
          <Select
            data-testid="menu-icon"
            options={Object.entries(MENU_ICONS).map(([value, { label, Icon }]) => ({
              value,
              label: (
                <Space>
                  <Icon />
                  {label}
                </Space>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item label={am.visual} name="visualId" rules={child ? [{ required: true, message: am.childNeedsVisual }] : []}>
          <BoardSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
