import { useState } from 'react';
import { App, Button, Card, Col, Empty, Input, Pagination, Row, Spin } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PERM_GROUP_PAGE_SIZES, permMessages, type PermGroup } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { deletePermGroup, fetchPermGroups, fetchPermTypes, permKeys } from './api.ts';
import { GroupCard, type GroupCardMode } from './GroupCard.tsx';
import { GroupFormModal, type GroupTarget } from './GroupFormModal.tsx';
import { ALL_TYPES, PermTypeMenu } from './PermTypeMenu.tsx';
import './perm.css';

/** Where a group's 权限设置 button leads. */
export function settingPath(group: Pick<PermGroup, 'id' | 'permName'>): string {
  return `/system/authGroupSetting?id=${group.id}&name=${encodeURIComponent(group.permName)}`;
}

interface Props {
  /** manage: add, edit, delete and 权限设置; select: a 选择 button per card. */
  mode: GroupCardMode;
  onSelect?: (group: PermGroup) => void;
}

/** The permission-group list: category menu, search, a card per group and pagination. */
export function AuthGroupPanel({ mode, onSelect }: Props) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const manage = mode === 'manage';
  const [typeId, setTypeId] = useState(ALL_TYPES);
  const [permName, setPermName] = useState('');
  const [page, setPage] = useState({ current: 1, size: PERM_GROUP_PAGE_SIZES[0] as number });
  const [target, setTarget] = useState<GroupTarget | null>(null);

  const types = useQuery({ queryKey: permKeys.types, queryFn: fetchPermTypes, staleTime: 0 });
  const query = { current: page.current, size: page.size, permName: permName || undefined, typeId: typeId === ALL_TYPES ? undefined : typeId };
  const groups = useQuery({ queryKey: permKeys.groups(query), queryFn: () => fetchPermGroups(query), placeholderData: keepPreviousData, staleTime: 0 });
  const records = groups.data?.records ?? [];

  const remove = useMutation({
    mutationFn: deletePermGroup,
    onSuccess: async (res) => {
      notifySuccess(res.msg || msg.deleted);
      if (page.current > 1 && records.length === 1) setPage((p) => ({ ...p, current: p.current - 1 }));
      await queryClient.invalidateQueries({ queryKey: permKeys.all });
    },
  });

  const confirmRemove = (group: PermGroup) =>
    modal.confirm({
      title: t.confirmTitle,
      content: permMessages.confirmDeleteGroup,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(group.id).catch(() => undefined),
    });

  const chooseType = (id: number) => {
    setTypeId(id);
    setPage((p) => ({ ...p, current: 1 }));
  };

  return (
    <div className="split-layout perm-panel" data-testid={`perm-panel-${mode}`}>
      <Card title={t.permTypes} className="split-side" size="small">
        <PermTypeMenu types={types.data ?? []} loading={types.isFetching} value={typeId} onChange={chooseType} editable={manage} />
      </Card>
      <Card className="split-main" styles={{ body: { padding: 16 } }}>
        <div className="table-toolbar">
          <Input.Search
            className="table-search"
            placeholder={t.permGroupSearch}
            allowClear
            enterButton={t.search}
            aria-label={t.permGroupSearch}
            onSearch={(v) => {
              setPermName(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />
          {manage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ typeId: typeId === ALL_TYPES ? undefined : typeId })}>
              {t.permAddGroup}
            </Button>
          )}
        </div>
        <Spin spinning={groups.isFetching}>
          {records.length === 0 ? (
            <Empty className="perm-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.permGroupEmpty} />
          ) : (
            <Row gutter={[16, 16]} data-testid="perm-group-grid">
              {records.map((group) => (
                <Col key={group.id} xs={24} md={12} xl={manage ? 8 : 12} xxl={manage ? 6 : 8}>
                  <GroupCard
                    group={group}
                    mode={mode}
                    onSelect={() => onSelect?.(group)}
                    onEdit={() => setTarget({ record: group })}
                    onDelete={() => confirmRemove(group)}
                    onSetting={() => void navigate(settingPath(group))}
                  />
                </Col>
              ))}
            </Row>
          )}
        </Spin>
        <Pagination
          className="perm-pagination"
          align="end"
          current={page.current}
          pageSize={page.size}
          total={groups.data?.total ?? 0}
          showSizeChanger
          pageSizeOptions={PERM_GROUP_PAGE_SIZES.map(String)}
          showTotal={t.total}
          onChange={(current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size }))}
        />
      </Card>
      {manage && <GroupFormModal target={target} types={types.data ?? []} onClose={() => setTarget(null)} />}
    </div>
  );
}
