import { afterEach, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { DataTable } from './TableViews.tsx';
import type { TableColumnSpec, TableRow } from './tables.ts';

afterEach(cleanup);

const columns: TableColumnSpec[] = [
  { key: 'city', title: '地市', dataIndex: 'city', kind: 'dimension' },
  { key: 'amount', title: '金额', dataIndex: 'amount', kind: 'measure', align: 'right' },
];
const rows: TableRow[] = Array.from({ length: 120 }, (_, i) => ({ key: `r${i}`, city: `城市${i + 1}`, amount: i + 1 }));

it('shows every row of a long unpaged table: the first rows at once, the rest right after', async () => {
  const { container } = render(<DataTable columns={columns} rows={rows} />);
  expect(screen.getByText('城市1')).toBeTruthy();
  await waitFor(() => expect(screen.getByText('城市120')).toBeTruthy());
  expect(container.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(120);
  // As wide as its content, at least the chart's width (the chart's body scrolls it).
  expect(container.querySelector('table')?.style.width).toBe('max-content');
});
