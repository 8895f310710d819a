import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { BUILTIN_WAREHOUSE_NAME } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { FileTableSourceCard } from './FileTableSourceCard.tsx';

const SOURCES = [
  { id: 1, dsDb: BUILTIN_WAREHOUSE_NAME, type: 'duckdb', dsTypeSyl: 'DuckDB', remark: null, writable: true },
  { id: 5, dsDb: '共享PG', type: 'postgres', dsTypeSyl: 'PostgreSQL', remark: null, writable: true },
];

describe('系统设置 → 上传文件表', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows the built-in warehouse when nothing is set, saves another source and back to the warehouse as null', async () => {
    let stored: number | null = null;
    const calls = mockFetch((call) => {
      if (call.url.includes('/api/datasource/usable')) return ok(SOURCES);
      if (!call.url.endsWith('/api/system/file-table-source')) return undefined;
      if (call.method === 'PUT') {
        stored = (call.body as { datasourceId: number | null }).datasourceId;
        return ok({ datasourceId: stored }, '保存成功');
      }
      return ok({ datasourceId: stored });
    });
    renderWithApp(<FileTableSourceCard />);
    const select = await screen.findByTestId('file-table-source');
    await waitFor(() => expect(select.closest('.ant-select')?.textContent).toContain('内置数仓（默认）'));

    fireEvent.mouseDown(select.querySelector('input') ?? select);
    fireEvent.click(await screen.findByText('共享PG（postgres）'));
    fireEvent.click(screen.getByTestId('file-table-source-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ datasourceId: 5 }]));
    // The built-in warehouse is not listed twice: only as 内置数仓（默认）.
    expect(screen.queryByText(`${BUILTIN_WAREHOUSE_NAME}（duckdb）`)).toBeNull();

    fireEvent.mouseDown(select.querySelector('input') ?? select);
    fireEvent.click((await screen.findAllByText('内置数仓（默认）')).at(-1)!);
    fireEvent.click(screen.getByTestId('file-table-source-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ datasourceId: 5 }, { datasourceId: null }]));
  });
});
