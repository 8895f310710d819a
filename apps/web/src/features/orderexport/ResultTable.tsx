import { useState } from 'react';
import { Card, Table } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ORDER_EXPORT_PAGE_SIZES } from '@shutu/contracts';
import { fetchResult, orderKeys } from './api.ts';
import { om } from './messages.ts';

/** The rows of a finished task (pageresult), 10/20/100 a page, default 10. */
export function ResultTable({ taskId }: { taskId: number }) {
  const [page, setPage] = useState({ current: 1, size: 10 });
  const result = useQuery({
    queryKey: orderKeys.result(taskId, page.current, page.size),
    queryFn: () => fetchResult(taskId, page.current, page.size),
    placeholderData: keepPreviousData,
  });
  const columns = (result.data?.columns ?? []).map((c) => ({ key: c.column, dataIndex: c.column, title: c.title, ellipsis: true }));
  return (
    <Card title={om.resultTitle} size="small" className="order-card">
      <Table
        rowKey={(_, index) => String(index)}
        size="small"
        loading={result.isFetching}
        columns={columns}
        dataSource={result.data?.records ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: result.data?.total ?? 0,
          pageSizeOptions: ORDER_EXPORT_PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => om.rows(total),
          onChange: (current, size) => setPage({ current: size === page.size ? current : 1, size }),
        }}
      />
    </Card>
  );
}
