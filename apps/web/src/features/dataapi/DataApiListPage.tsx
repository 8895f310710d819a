import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Card, Dropdown, Input, Select, Space } from 'antd';
import { DownOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DATA_API_STATUS_LABELS, DATA_API_STATUSES } from '@shutu/contracts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { dataApiKeys, fetchCategories, fetchDataApis } from './api.ts';
import { CategoryMenu } from './CategoryMenu.tsx';
import { DataApiTable } from './DataApiTable.tsx';
import { am } from './messages.ts';
import './dataapi.css';

/** 数据接口 (/newbi/dataapi; route not in the spec, docs/dataapi.md): the category menu, search, status and the APIs. */
export function DataApiListPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [apiName, setApiName] = useState('');
  const [apiStatus, setApiStatus] = useState<number | undefined>();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const query = { categoryId, apiName: apiName.trim() || undefined, apiStatus, current: paging.current, size: paging.size };
  const categories = useQuery({ queryKey: dataApiKeys.categories, queryFn: fetchCategories });
  const apis = useQuery({ queryKey: dataApiKeys.list(query), queryFn: () => fetchDataApis(query), placeholderData: keepPreviousData });
  const changed = () => void queryClient.invalidateQueries({ queryKey: dataApiKeys.all });
  const newItems = [
    { key: '/apiedit1', label: am.newCombinedApi },
    { key: '/apiedit', label: am.newDatabaseApi },
    { key: '/apiedit?type=2', label: am.newExternalApi },
    { key: '/apiedit3', label: am.newType3Api },
  ];

  return (
    <PageContainer
      title={am.pageList}
      description={am.pageListDesc}
      extra={
        <Space>
          <Link to="/newbi/dataapi/docs">
            <Button icon={<FileTextOutlined />}>{am.docs}</Button>
          </Link>
          <Dropdown menu={{ items: newItems, onClick: ({ key }) => navigate(categoryId ? `${key}${key.includes('?') ? '&' : '?'}ws=${categoryId}` : key) }}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="dataapi-new">
              {am.newApi} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      }
    >
      <div className="dataapi-list">
        <Card className="dataapi-list-side" size="small">
          <CategoryMenu
            categories={categories.data ?? []}
            value={categoryId}
            onChange={(id) => {
              setCategoryId(id);
              setPaging((p) => ({ ...p, current: 1 }));
            }}
          />
        </Card>
        <Card className="dataapi-list-main">
          <Space style={{ marginBottom: 16 }} wrap>
            <Input.Search
              allowClear
              placeholder={am.searchPlaceholder}
              style={{ width: 260 }}
              onSearch={(v) => {
                setApiName(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              data-testid="dataapi-search"
            />
            <Select
              allowClear
              placeholder={`${am.status}：${am.all}`}
              style={{ width: 140 }}
              value={apiStatus}
              onChange={(v) => {
                setApiStatus(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              options={DATA_API_STATUSES.map((s) => ({ value: s, label: DATA_API_STATUS_LABELS[s] }))}
              data-testid="dataapi-status-filter"
            />
          </Space>
          <DataApiTable
            rows={apis.data?.records ?? []}
            total={apis.data?.total ?? 0}
            loading={apis.isFetching}
            categories={categories.data ?? []}
            paging={paging}
            onPage={(current, size) => setPaging({ current, size })}
            onChanged={changed}
          />
        </Card>
      </div>
    </PageContainer>
  );
}
