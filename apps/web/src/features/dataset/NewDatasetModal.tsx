import { useMemo } from 'react';
import { Alert, Form, Modal, Select, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { CATEGORY_ROOT, type CubeCategory } from '@shutu/contracts';
import { categoryTree } from '../../shared/categories/tree.ts';
import { useNavigate } from 'react-router';
import { t } from '../../shared/messages.ts';
import { datasetKeys, editorPath, fetchUsableSources } from './api.ts';

interface Values {
  datasourceId: number;
  workspaceId: number;
}

interface Props {
  open: boolean;
  categories: CubeCategory[];
  /** The category selected in the tree (0: 全部, no default). */
  categoryId: number;
  onClose: () => void;
}

/** The tree of the categories for a TreeSelect. */
export function categoryOptions(categories: readonly CubeCategory[]) {
  return categoryTree(categories).map((root) => ({
    value: root.id,
    title: root.wsName,
    children: root.children.map((c) => ({ value: c.id, title: c.wsName })),
  }));
}

/** 新建数据集: choose a data source (those the caller may use) and a category, then open the editor. */
export function NewDatasetModal({ open, categories, categoryId, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const sources = useQuery({ queryKey: datasetKeys.usableSources, queryFn: fetchUsableSources, enabled: open, staleTime: 0 });
  const treeData = useMemo(() => categoryOptions(categories), [categories]);
  const defaultCategory = categoryId !== CATEGORY_ROOT && categories.some((c) => c.id === categoryId) ? categoryId : undefined;
  const noSources = sources.isSuccess && sources.data.length === 0;

  return (
    <Modal
      open={open}
      title={t.dsetNewTitle}
      width={480}
      destroyOnHidden
      okText={t.dsetNext}
      cancelText={t.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', disabled: noSources }}
      modalRender={(dom) => (
        <Form<Values>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={{ workspaceId: defaultCategory }}
          onFinish={(v) => {
            onClose();
            void navigate(editorPath({ sourceid: v.datasourceId, ws: v.workspaceId }));
          }}
        >
          {dom}
        </Form>
      )}
    >
      {noSources && <Alert type="warning" showIcon className="dset-new-alert" title={t.dsetNoSources} />}
      <Form.Item label={t.dsetSource} name="datasourceId" rules={[{ required: true, message: t.dsetPickSource }]}>
        <Select<number>
          placeholder={t.dsetPickSource}
          loading={sources.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          options={(sources.data ?? []).map((s) => ({ value: s.id, label: s.dsDb, type: s.dsTypeSyl }))}
          optionRender={(o) => (
            <span className="dset-source-option">
              {o.label}
              <span className="dset-source-type">{o.data.type}</span>
            </span>
          )}
          data-testid="new-dataset-source"
        />
      </Form.Item>
      <Form.Item label={t.dsetCategory} name="workspaceId" rules={[{ required: true, message: t.dsetPickCategory }]}>
        <TreeSelect<number> placeholder={t.dsetPickCategory} treeData={treeData} treeDefaultExpandAll data-testid="new-dataset-category" />
      </Form.Item>
    </Modal>
  );
}
