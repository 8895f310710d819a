import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fail, mockFetch, ok } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { PublicUrlCard } from './PublicUrlCard.tsx';

const invalid = /^公开访问地址格式不正确/;

describe('系统设置 → 公开访问地址', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows the stored address and PUBLIC_URL as the default; refuses a bad address before sending; saves the normalised one', async () => {
    let stored = '';
    const calls = mockFetch((call) => {
      if (!call.url.endsWith('/api/system/public-url')) return undefined;
      if (call.method === 'PUT') {
        const value = (call.body as { publicUrl: string }).publicUrl;
        stored = value.trim().replace(/\/+$/, '');
        return ok({ publicUrl: stored, envPublicUrl: 'https://env.example.com' }, '保存成功');
      }
      return ok({ publicUrl: stored, envPublicUrl: 'https://env.example.com' });
    });
    renderWithApp(<PublicUrlCard />);
    const input = (await screen.findByTestId('public-url')) as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.placeholder).toBe('https://env.example.com');
    expect(screen.getByTestId('public-url-default').textContent).toBe('留空时使用环境变量 PUBLIC_URL：https://env.example.com');

    fireEvent.change(input, { target: { value: 'bi.example.com' } });
    fireEvent.click(screen.getByTestId('public-url-save'));
    expect(await screen.findByText(invalid)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'https://bi.example.com/shutu/' } });
    fireEvent.click(screen.getByTestId('public-url-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ publicUrl: 'https://bi.example.com/shutu/' });
    await waitFor(() => expect(input.value).toBe('https://bi.example.com/shutu'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).toBeNull());
  });

  it('puts the server’s refusal under the field; without PUBLIC_URL says what an empty address means', async () => {
    mockFetch((call) => {
      if (!call.url.endsWith('/api/system/public-url')) return undefined;
      if (call.method === 'PUT')
        return fail(400, '公开访问地址格式不正确：服务器拒绝', { fields: [{ field: 'publicUrl', message: '公开访问地址格式不正确：服务器拒绝' }] });
      return ok({ publicUrl: 'https://bi.example.com', envPublicUrl: '' });
    });
    renderWithApp(<PublicUrlCard />);
    const input = (await screen.findByTestId('public-url')) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('https://bi.example.com'));
    expect(screen.getByTestId('public-url-default').textContent).toContain('留空时：分享链接使用浏览器访问本系统的地址');
    fireEvent.change(input, { target: { value: 'https://other.example.com' } });
    fireEvent.click(screen.getByTestId('public-url-save'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('公开访问地址格式不正确：服务器拒绝'));
  });
});
