import { useState } from 'react';
import { Alert, App, Button, Card, Empty, Space, Tag, Tree, Typography, type TreeProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { AppMenu, MenuSave } from '@shutu/contracts';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { deleteMenus, saveMenu, saveMenuTree } from './api.ts';
import { MenuIcon } from './menu-icons.tsx';
import { MenuFormModal, type MenuFormTarget } from './MenuFormModal.tsx';
import { am } from './messages.ts';
import { moveMenu, toTreeSave, treeProblem } from './tree.ts';

/**
 * The two-level menu tree of an app: add (a child uses its parent's menuId), edit, delete (only
 * without children, after 确定删除此菜单?), drag to reorder among siblings, 保存菜单 (save all).
 */
export function MenuPanel({ appId, menus, onChange }: { appId: number; menus: AppMenu[]; onChange: (menus: AppMenu[]) => void }) {
  const { modal } = App.useApp();
  const [target, setTarget] = useState<MenuFormTarget | null>(null);
  const [dirty, setDirty] = useState(false);
  const done = (result: { data: AppMenu[]; msg: string }) => {
    onChange(result.data);
    notifySuccess(result.msg || am.saved);
  };
  const saveOne = useMutation({
    mutationFn: (body: MenuSave) => saveMenu(appId, body),
    onSuccess: (result) => {
      done(result);
      setTarget(null);
    },
    onError: notifyError,
  });
  const saveAll = useMutation({
    mutationFn: () => saveMenuTree(appId, toTreeSave(menus)),
    onSuccess: (result) => {
      done(result);
      setDirty(false);
    },
    onError: notifyError,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteMenus(appId, [id]), onSuccess: done, onError: notifyError });

  const askDelete = (menu: AppMenu) => {
    if (menu.children.length > 0) return notifyWarning(am.deleteHasChildren);
    modal.confirm({ title: am.deleteConfirm, okText: am.ok, cancelText: am.cancel, onOk: () => remove.mutateAsync(menu.menuId) });
  };
  const submitAll = () => {
    const problem = treeProblem(menus, am);
    if (problem) return notifyWarning(problem);
    saveAll.mutate();
  };
  const onDrop: TreeProps['onDrop'] = (info) => {
    const dragId = Number(info.dragNode.key);
    const dropId = Number(info.node.key);
    let next = menus;
    if (!info.dropToGap) {
      // Dropped onto its own parent (the upper half of the first child): first among the children.
      const first = menus.find((m) => m.menuId === dropId)?.children[0];
      if (first) next = moveMenu(menus, dragId, first.menuId, false);
    } else {
      const after = info.dropPosition > Number(String(info.node.pos).split('-').pop());
      next = moveMenu(menus, dragId, dropId, after);
    }
    if (next !== menus) {
      onChange(next);
      setDirty(true);
    }
  };

  const title = (menu: AppMenu) => (
    <span className="app-menu-node" data-testid="app-menu-node" data-name={menu.menuName}>
      <MenuIcon name={menu.menuIcon} />
      <Typography.Text strong={menu.parentId === 0}>{menu.menuName}</Typography.Text>
      {menu.visualId ? <Tag color="blue">{menu.visualName}</Tag> : menu.children.length === 0 && <Tag>{am.noBoard}</Tag>}
      <Space size={0} className="app-menu-actions" onClick={(e) => e.stopPropagation()}>
        {menu.parentId === 0 && (
          <Button size="small" type="link" icon={<PlusOutlined />} data-testid="menu-add-child" onClick={() => setTarget({ parentId: menu.menuId })}>
            {am.addChild}
          </Button>
        )}
        <Button size="small" type="link" icon={<EditOutlined />} data-testid="menu-edit" onClick={() => setTarget({ menu, parentId: menu.parentId })}>
          {am.edit}
        </Button>
        <Button size="small" type="link" danger icon={<DeleteOutlined />} data-testid="menu-delete" onClick={() => askDelete(menu)}>
          {am.remove}
        </Button>
      </Space>
    </span>
  );
  const treeData = menus.map((m) => ({ key: m.menuId, title: title(m), children: m.children.map((c) => ({ key: c.menuId, title: title(c), isLeaf: true })) }));
  const parentOf = (key: number) => (menus.some((m) => m.menuId === key) ? 0 : (menus.find((m) => m.children.some((c) => c.menuId === key))?.menuId ?? -1));

  return (
    <Card
      title={am.menus}
      extra={
        <Space>
          <Button icon={<PlusOutlined />} data-testid="menu-add" onClick={() => setTarget({ parentId: 0 })}>
            {am.addMenu}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} data-testid="menu-save-all" loading={saveAll.isPending} onClick={submitAll}>
            {am.saveMenus}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{am.dragHint}</Typography.Paragraph>
      {dirty && <Alert type="warning" showIcon title={am.unsavedOrder} style={{ marginBottom: 12 }} />}
      {menus.length === 0 ? (
        <Empty description={am.noMenus} />
      ) : (
        <Tree
          className="app-menu-tree"
          data-testid="app-menu-tree"
          blockNode
          // Always open: a new child shows at once under its parent.
          expandedKeys={menus.map((m) => m.menuId)}
          draggable={{ icon: false }}
          selectable={false}
          treeData={treeData}
          allowDrop={({ dragNode, dropNode, dropPosition }) =>
            dropPosition === 0 ? parentOf(Number(dragNode.key)) === Number(dropNode.key) : parentOf(Number(dragNode.key)) === parentOf(Number(dropNode.key))
          }
          onDrop={onDrop}
        />
      )}
      <MenuFormModal target={target} saving={saveOne.isPending} onSave={(body) => saveOne.mutate(body)} onClose={() => setTarget(null)} />
    </Card>
  );
}
