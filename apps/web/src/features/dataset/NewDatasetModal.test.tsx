import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { NewDatasetModal } from './NewDatasetModal.tsx';
import { categories, usable } from './test-fixtures.ts';

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

async function pickSource(name: string) {
  const select = screen.getByTestId('new-dataset-source');
  fireEvent.mouseDown(within(select.closest('.ant-select') ?? select).getByRole('combobox'));
  const option = await waitFor(() => {
    const found = document.querySelector(`.ant-select-dropdown .ant-select-item-option[title="${name}"]`);
    if (!found) throw new Error(`no option ${name}`);
    return found;
  });
  fireEvent.click(option);
}

describe('new dataset dialog', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('lists the usable sources and opens the editor with the source and the selected category', async () => {
    const calls = mockFetch((c) => (c.url === '/api/datasource/usable' ? ok(usable) : undefined));
    const onClose = vi.fn();
    renderWithApp(
      <>
        <NewDatasetModal open categories={categories} categoryId={2} onClose={onClose} />
        <Where />
      </>,
      { path: '/newbi/dataset' },
    );
    await pickSource('销售库');
    fireEvent.click(screen.getByRole('button', { name: /下一步/ }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/newbi/dataset/edit?sourceid=4&ws=2'));
    expect(onClose).toHaveBeenCalled();
    expect(calls.map((c) => c.url)).toContain('/api/datasource/usable');
  });

  it('under 全部, asks for a source and a category first', async () => {
    mockFetch((c) => (c.url === '/api/datasource/usable' ? ok(usable) : undefined));
    renderWithApp(
      <>
        <NewDatasetModal open categories={categories} categoryId={0} onClose={() => undefined} />
        <Where />
      </>,
      { path: '/newbi/dataset' },
    );
    fireEvent.click(screen.getByRole('button', { name: /下一步/ }));
    expect(await screen.findByText('请选择数据源', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(await screen.findByText('请选择分类', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/newbi/dataset');
  });

  it('says so when the user may build on no source', async () => {
    mockFetch((c) => (c.url === '/api/datasource/usable' ? ok([]) : undefined));
    renderWithApp(<NewDatasetModal open categories={categories} categoryId={1} onClose={() => undefined} />);
    expect(await screen.findByText('没有可用的数据源：请联系管理员为您所在的权限组授权数据表')).toBeTruthy();
    expect((screen.getByRole('button', { name: /下一步/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
