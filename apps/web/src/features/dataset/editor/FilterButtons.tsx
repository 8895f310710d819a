import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { FilterOutlined, SafetyOutlined } from '@ant-design/icons';
import { notifySuccess } from '../../../shared/notify.ts';
import { useUserInfo, usePermission } from '../../../shared/session.ts';
import { GlobalFilterDialog } from '../filter/GlobalFilterDialog.tsx';
import { PermFilterDialog } from '../filter/PermFilterDialog.tsx';
import type { FilterField, FilterTree } from '../filter/types.ts';
import type { EditorField } from './model-state.ts';
import { isSavedId } from './model-state.ts';
import { em } from './messages.ts';

interface Props {
  /** The saved dataset's id; null while adding (permission filters need a saved dataset). */
  id: number | null;
  fields: readonly EditorField[];
  globalFilter: FilterTree | null;
  onGlobalFilter: (tree: FilterTree | null) => void;
}

/**
 * The toolbar's 全局过滤 and 权限过滤 buttons with their dialogs (spec 2 §2, §6): both need the
 * permission cube_filter_row; permission filters also need a saved dataset and bind only
 * saved fields.
 */
export function FilterButtons({ id, fields, globalFilter, onGlobalFilter }: Props) {
  const can = usePermission();
  const isAdmin = useUserInfo().data?.isAdministrator ?? false;
  const [open, setOpen] = useState<'global' | 'perm' | null>(null);
  const all = useMemo((): FilterField[] => fields.map((f) => ({ id: f.id, title: f.columnTitle, viewDataType: f.viewDataType })), [fields]);
  const saved = useMemo((): FilterField[] => all.filter((f) => isSavedId(f.id)).map((f) => ({ ...f, id: Number(f.id) })), [all]);
  if (!can('cube_filter_row')) return null;
  const active = globalFilter !== null && (globalFilter.conditions.length > 0 || globalFilter.filters.length > 0);
  return (
    <>
      <Button
        size="small"
        icon={<FilterOutlined />}
        type={active ? 'primary' : 'default'}
        ghost={active}
        disabled={fields.length === 0}
        onClick={() => setOpen('global')}
        data-testid="ds-global-filter"
      >
        {em.globalFilter}
      </Button>
      {id !== null && (
        <Button size="small" icon={<SafetyOutlined />} onClick={() => setOpen('perm')} data-testid="ds-perm-filter">
          {em.permFilter}
        </Button>
      )}
      <GlobalFilterDialog
        open={open === 'global'}
        value={globalFilter}
        fields={all}
        onOk={(tree) => {
          onGlobalFilter(tree);
          setOpen(null);
          notifySuccess(em.globalFilterChanged);
        }}
        onCancel={() => setOpen(null)}
      />
      {id !== null && <PermFilterDialog open={open === 'perm'} cubeDataId={id} fields={saved} isAdmin={isAdmin} onClose={() => setOpen(null)} />}
    </>
  );
}
