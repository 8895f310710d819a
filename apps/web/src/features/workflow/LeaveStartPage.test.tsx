import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { LeaveStartPage } from './LeaveStartPage.tsx';

/** The leave start form (spec 3 §2, §5): each field checked on blur with the spec's message; an end before the start refused. */
describe('请假申请', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks every field on blur and refuses an end before the start', async () => {
    const calls = mockFetch((c) => (c.url === '/api/blade-user/user-list' ? ok([{ id: 7, account: 'lisi', name: '李四' }]) : undefined));
    renderWithApp(<LeaveStartPage />, { path: '/work/process/leave/form?processDefinitionId=leave:1:abc' });
    expect(await screen.findByText('请假基础信息')).toBeTruthy();

    fireEvent.blur(screen.getByLabelText('审批人员'));
    fireEvent.blur(screen.getByLabelText('开始时间'));
    fireEvent.blur(screen.getByLabelText('结束时间'));
    fireEvent.blur(screen.getByLabelText('请假理由'));
    const fieldError = (message: string) =>
      waitFor(() => expect(screen.queryAllByText(message).some((el) => el.classList.contains('ant-form-item-explain-error'))).toBe(true), { timeout: 5000 });
    for (const message of ['请选择审批人员', '请选择开始时间', '请选择结束时间', '请输入请假理由']) await fieldError(message);

    const pick = (label: string, value: string) => {
      const input = screen.getByLabelText(label);
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
      fireEvent.blur(input);
    };
    pick('开始时间', '2026-12-02 09:00:00');
    pick('结束时间', '2026-12-01 18:00:00');
    await fieldError('结束时间不能早于开始时间');

    fireEvent.submit(screen.getByRole('button', { name: /提\s*交/ }).closest('form')!);
    await waitFor(() => expect(screen.getAllByText('请输入请假理由').length).toBeGreaterThan(0));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('asks for the process when opened without processDefinitionId', async () => {
    mockFetch(() => undefined);
    renderWithApp(<LeaveStartPage />, { path: '/work/process/leave/form' });
    expect(await screen.findByText('缺少流程参数，请从流程工作台进入')).toBeTruthy();
  });
});
