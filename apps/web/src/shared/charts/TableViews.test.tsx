import { afterEach, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DataTable } from './TableViews.tsx';
import type { TableColumnSpec, TableRow } from './tables.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

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

it("draws a long table's first rows only until the page is idle, and all of them as soon as the pointer reaches it", () => {
  // A page that never goes idle (a board still drawing its other charts).
  vi.stubGlobal('requestIdleCallback', () => 1);
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  const { container } = render(<DataTable columns={columns} rows={rows} />);
  const drawn = () => container.querySelectorAll('tbody tr.ant-table-row').length;
  expect(drawn()).toBe(12);
  expect(screen.queryByText('城市13')).toBeNull();
  fireEvent.pointerEnter(container.querySelector('.shutu-data-table')!);
  expect(drawn()).toBe(120);
  expect(screen.getByText('城市120')).toBeTruthy();
});

it('draws the rest of the rows when the page goes idle', async () => {
  const idle: { run?: () => void } = {};
  vi.stubGlobal('requestIdleCallback', (run: () => void) => ((idle.run = run), 1));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  const { container } = render(<DataTable columns={columns} rows={rows} />);
  expect(container.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(12);
  expect(idle.run).toBeDefined();
  await act(async () => idle.run!());
  expect(container.querySelectorAll('tbody tr.ant-table-row')).toHaveLength(120);
});
