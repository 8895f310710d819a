import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall, apiLogin, launchBrowser, loginThroughPage, newPage, startApp, type E2EApp } from './harness.ts';

/** What the upload tests start with: the app, the built-in warehouse's id (the drawer's default source), a page logged in as the administrator. */
export interface UploadSession {
  app: E2EApp;
  warehouseId: number;
  browser: Browser;
  page: Page;
}

export async function startUploadSession(): Promise<UploadSession> {
  const app = await startApp();
  const token = await apiLogin(app);
  const sources = await apiCall<{ records: { id: number; isBuiltin: boolean }[] }>(app, token, 'GET', '/api/datasource?current=1&size=100');
  const warehouseId = sources.records.find((s) => s.isBuiltin)!.id;
  const browser = await launchBrowser();
  const page = await newPage(browser);
  await loginThroughPage(page, app);
  return { app, warehouseId, browser, page };
}

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
