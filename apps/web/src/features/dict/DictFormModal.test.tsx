import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Dict } from '@shutu/contracts';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DictFormModal } from './DictFormModal.tsx';

const parent: Dict = { id: 9, parentId: 0, code: 'gender', dictKey: 0, dictValue: '性别', sort: 1, isSealed: 0, remark: null };

describe('DictFormModal', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('requires code, key, name and sort with the spec messages', async () => {
    const calls = mockFetch(() => ok(null));
    renderWithApp(<DictFormModal target={{}} onClose={() => undefined} />);
    expect(await screen.findByText('新增字典')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    for (const text of ['请输入字典编号', '请输入字典名称', '请输入字典键值', '请输入字典排序']) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(calls).toHaveLength(0);
  });

  it('creates a child under the selected parent with its code, read-only', async () => {
    const onClose = vi.fn();
    const calls = mockFetch(() => ok({ ...parent, id: 10, parentId: 9 }, '保存成功'));
    renderWithApp(<DictFormModal target={{ parent }} onClose={onClose} />);
    const code = (await screen.findByLabelText('字典编号')) as HTMLInputElement;
    expect(code.value).toBe('gender');
    expect(code.readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText('字典名称'), { target: { value: '男' } });
    fireEvent.change(screen.getByLabelText('字典键值'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('排序'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/dict',
      body: { parentId: 9, code: 'gender', dictValue: '男', dictKey: 1, sort: 2, isSealed: 0, remark: null },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('keeps the dialog open and shows the server message on a conflict', async () => {
    const onClose = vi.fn();
    mockFetch(() => ({ status: 409, body: { code: 409, success: false, msg: '字典编号已存在', data: null } }));
    renderWithApp(<DictFormModal target={{}} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('字典编号'), { target: { value: 'gender' } });
    fireEvent.change(screen.getByLabelText('字典名称'), { target: { value: '性别' } });
    fireEvent.change(screen.getByLabelText('字典键值'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('排序'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('字典编号已存在')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
