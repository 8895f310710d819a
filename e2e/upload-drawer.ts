import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { E2EApp } from './harness.ts';

/**
 * 数据集 → 上传文件 up to the open upload drawer: with several usable sources the chooser comes
 * first, the built-in warehouse preselected, and 下一步 opens the drawer on it.
 */
export async function openUploadDrawer(page: Page, app: E2EApp): Promise<Locator> {
  await page.goto(`${app.url}/newbi/dataset`);
  await page.getByRole('heading', { name: '数据集' }).waitFor();
  await page.getByTestId('dataset-upload-file').click();
  const drawer = page.getByTestId('file-upload-drawer');
  const chooser = page.locator('.ant-modal').filter({ hasText: '上传到数据源' });
  await Promise.race([drawer.waitFor(), chooser.waitFor()]);
  if (await chooser.isVisible()) {
    expect(await chooser.innerText()).toContain('示例数据仓库');
    await chooser.getByRole('button', { name: /下\s*一\s*步/ }).click();
  }
  await drawer.waitFor();
  return drawer;
}
