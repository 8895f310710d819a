import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, ok } from '../../../test/fetch-mock.ts';
import { renderWithApp, user } from '../../../test/render.tsx';
import { SaveDialog } from './SaveDialog.tsx';

const groups = (list: { id: number; permName: string }[]) => mockFetch((c) => (c.url.startsWith('/api/perm/my-groups') ? ok(list) : undefined));
const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
const okButton = () => screen.getByTestId('ds-perm-ok') as HTMLButtonElement;

describe('SaveDialog (first save)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a member of groups defaults to their groups, all ticked', async () => {
    groups([{ id: 3, permName: '浙江销售组' }]);
    const onOk = vi.fn();
    renderWithApp(<SaveDialog open saving={false} onOk={onOk} onCancel={() => {}} />, { info: user({ isAdministrator: false }) });
    expect(((await screen.findByRole('checkbox', { name: '浙江销售组' })) as HTMLInputElement).checked).toBe(true);
    expect(radio('权限组').checked).toBe(true);
    fireEvent.click(okButton());
    expect(onOk).toHaveBeenCalledWith({ publicStatus: 0, dataPermIdList: [3] });
  });

  it('a user in no group defaults to 公开 with 确定 enabled', async () => {
    groups([]);
    const onOk = vi.fn();
    renderWithApp(<SaveDialog open saving={false} onOk={onOk} onCancel={() => {}} />, { info: user({ isAdministrator: false }) });
    await waitFor(() => expect(radio('公开').checked).toBe(true));
    expect(screen.queryByText('您不在任何权限组中')).toBeNull();
    expect(okButton().disabled).toBe(false);
    fireEvent.click(okButton());
    expect(onOk).toHaveBeenCalledWith({ publicStatus: 1, dataPermIdList: [] });
  });

  it('an administrator defaults to 公开 even in groups, and may pick the groups instead', async () => {
    groups([{ id: 3, permName: '浙江销售组' }]);
    const onOk = vi.fn();
    renderWithApp(<SaveDialog open saving={false} onOk={onOk} onCancel={() => {}} />);
    expect(radio('公开').checked).toBe(true);
    expect(okButton().disabled).toBe(false);
    fireEvent.click(radio('权限组'));
    expect(((await screen.findByRole('checkbox', { name: '浙江销售组' })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(okButton());
    expect(onOk).toHaveBeenCalledWith({ publicStatus: 0, dataPermIdList: [3] });
  });
});
