import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { categories } from '../test-fixtures.ts';
import { CategoryField } from './CategoryField.tsx';

let picked: unknown;
function Harness() {
  const [form] = Form.useForm();
  return (
    <Form form={form} initialValues={{ category: [1, 2] }} onValuesChange={() => (picked = form.getFieldValue('category'))}>
      <CategoryField form={form} categories={categories} />
      <button type="button" data-testid="read" onClick={() => (picked = form.getFieldValue('category'))} />
    </Form>
  );
}

describe('the editor category field', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('adds a category beside the cascader (请填写分类名) under the selected top level, then selects it', async () => {
    const calls = mockFetch((c) => (c.method === 'POST' ? ok({ id: 9, wsName: '华南', parentId: 1, sortNum: 0, createUserId: 1 }, '保存成功') : undefined));
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: '新增分类' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请填写分类名')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('分类名称'), { target: { value: '华南' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ body: { wsName: '华南', parentId: 1 } }));
    await waitFor(() => {
      fireEvent.click(screen.getByTestId('read'));
      expect(picked).toEqual([1, 9]);
    });
  });
});
