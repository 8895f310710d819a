import { useState } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { DesktopOutlined, DownOutlined, LayoutOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { CATEGORY_ROOT, type BoardType } from '@shutu/contracts';
import { datasetKeys, fetchCategories, fetchUsableSources } from '../dataset/api.ts';
import { NewDatasetModal } from '../dataset/NewDatasetModal.tsx';
import { UploadFileButton } from '../dataset/UploadFileButton.tsx';
import { editorPath as boardEditorPath } from '../board/api.ts';
import { hm } from './messages.ts';

/**
 * 新建数据集, 上传文件, 新建大屏: the dataset list's and the board list's own flows. The dataset
 * actions need a data source the user may use (as on the dataset list, where a member without
 * one is told so); 新建大屏 opens the editor in a new tab, as the board list does.
 */
export function QuickActions() {
  const [creatingDataset, setCreatingDataset] = useState(false);
  const sources = useQuery({ queryKey: datasetKeys.usableSources, queryFn: fetchUsableSources, staleTime: 0, meta: { silent: true } });
  const categories = useQuery({ queryKey: datasetKeys.categories, queryFn: fetchCategories, enabled: creatingDataset, staleTime: 0 });
  const mayBuildDatasets = (sources.data ?? []).length > 0;
  const createBoard = (type: BoardType) => window.open(boardEditorPath('visual', type, { categoryId: CATEGORY_ROOT }), '_blank');

  return (
    <Space wrap data-testid="home-actions">
      {mayBuildDatasets && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreatingDataset(true)} data-testid="home-new-dataset">
          {hm.newDataset}
        </Button>
      )}
      <UploadFileButton categoryId={CATEGORY_ROOT} />
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items: [
            { key: 'screen', icon: <DesktopOutlined />, label: hm.screenMode, extra: hm.screenModeDesc },
            { key: 'quick', icon: <LayoutOutlined />, label: hm.quickMode, extra: hm.quickModeDesc },
          ],
          onClick: ({ key }) => createBoard(key as BoardType),
        }}
      >
        <Button icon={<PlusOutlined />} data-testid="home-new-board">
          {hm.newBoard}
          <DownOutlined />
        </Button>
      </Dropdown>
      <NewDatasetModal open={creatingDataset} categories={categories.data ?? []} categoryId={CATEGORY_ROOT} onClose={() => setCreatingDataset(false)} />
    </Space>
  );
}
