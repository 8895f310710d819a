import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { decodeMimeHeader, startSmtpServer, type LocalSmtpServer } from '../apps/server/test/notify-servers.ts';
import { apiCall, apiLogin, eventually, launchBrowser, loginThroughPage, newPage, screenshot, startApp, type E2EApp } from './harness.ts';

/**
 * Approval workflow (issue 23; docs/workflow.md) in Chromium with two users: 张三 asks for leave
 * in the start form, 李四 finds it in his to-dos, sees the diagram, is warned when rejecting without
 * a comment, approves with one; 张三 sees the result and the history. A second request is
 * withdrawn, a third transferred to 王五, who approves it.
 */
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const PASSWORD = 'flow1234';

describe('approval workflow', () => {
  let app: E2EApp;
  let browser: Browser;
  let smtp: LocalSmtpServer;
  let applicant: Page;
  let approver: Page;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startApp();
    const token = await apiLogin(app);
    await apiCall(app, token, 'PUT', '/api/system/notify', { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false, smtpFrom: 'shutu-bi@example.com' });
    for (const [account, name] of [
      ['zhangsan', '张三'],
      ['lisi', '李四'],
      ['wangwu', '王五'],
    ] as const) {
      const created = await apiCall<{ id: number }>(app, token, 'POST', '/api/org/users', {
        account,
        password: md5(PASSWORD),
        name,
        email: `${account}@example.com`,
      });
      ids[account] = created.id;
    }
    browser = await launchBrowser();
    applicant = await newPage(browser);
    approver = await newPage(browser);
    await loginThroughPage(applicant, app, 'zhangsan', PASSWORD);
    await loginThroughPage(approver, app, 'lisi', PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();
  const pickDate = async (page: Page, label: string, value: string) => {
    const input = page.getByLabel(label);
    await input.click();
    await input.fill(value);
    await input.press('Enter');
  };
  const startLeave = async (reason: string) => {
    const token = await apiLogin(app, 'zhangsan', PASSWORD);
    const [definition] = await apiCall<{ processDefinitionId: string }[]>(app, token, 'GET', '/api/blade-flow/work/start-list');
    return apiCall<{ processInstanceId: string }>(app, token, 'POST', '/api/blade-desk/process/leave/start-process', {
      processDefinitionId: definition!.processDefinitionId,
      taskUser: ids.lisi,
      startTime: '2026-12-10 09:00:00',
      endTime: '2026-12-10 18:00:00',
      reason,
    });
  };

  it('张三 asks for leave, 李四 rejects without a comment (warned), then approves; 张三 sees the result and the history', async () => {
    await applicant.goto(`${app.url}/work/start`);
    await applicant.getByText('请假流程').waitFor();
    await applicant.getByRole('button', { name: '发起' }).click();
    await applicant.waitForURL(/\/work\/process\/leave\/form\?processDefinitionId=leave%3A1%3A/);
    await applicant.getByText('请假基础信息').waitFor();

    // Every field is required: submitting the empty form shows the four spec messages.
    await applicant.getByRole('button', { name: /提\s*交/ }).click();
    const errors = applicant.locator('.ant-form-item-explain-error');
    for (const message of ['请选择审批人员', '请选择开始时间', '请选择结束时间', '请输入请假理由']) await errors.filter({ hasText: message }).waitFor();

    await applicant.getByLabel('审批人员').click();
    await applicant.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'lisi' }).click();
    await pickDate(applicant, '开始时间', '2026-12-01 09:00:00');
    await pickDate(applicant, '结束时间', '2026-11-30 18:00:00');
    await errors.filter({ hasText: '结束时间不能早于开始时间' }).waitFor();
    await pickDate(applicant, '结束时间', '2026-12-02 18:00:00');
    await applicant.getByLabel('请假理由').fill('回老家参加婚礼');
    await applicant.getByLabel('请假理由').blur();
    await expect.poll(() => errors.count()).toBe(0);
    await screenshot(applicant, 'workflow-start-form');
    await applicant.getByRole('button', { name: /提\s*交/ }).click();
    await toast(applicant, '已提交');
    await applicant.waitForURL(/\/work\/start$/);

    // The approver is mailed, and finds the task in his to-dos with the count in the menu.
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes('lisi@example.com')), 'the mail to 李四', 30_000);
    expect(decodeMimeHeader(/^Subject: (.*(?:\r?\n\s.*)*)/m.exec(mail.data)![1]!)).toBe('待审批：张三的请假流程');
    await approver.goto(`${app.url}/work/start`);
    await approver.locator('.app-menu .ant-badge-count').filter({ hasText: '1' }).waitFor();
    const row = approver.locator('.ant-table-row').filter({ hasText: '张三' });
    await row.getByText('审批人审批').waitFor();
    await row.getByRole('button', { name: '办理' }).click();
    await approver.waitForURL(/\/work\/process\/leave\/handle\?taskId=/);
    await approver.getByText('回老家参加婚礼').waitFor();
    await approver.getByText('2026-12-01 09:00:00').waitFor();
    const diagram = approver.locator('img.work-diagram');
    await diagram.waitFor();
    expect(await diagram.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(600);
    await screenshot(approver, 'workflow-approval-page');

    await approver.getByRole('button', { name: /驳\s*回/ }).click();
    await approver.locator('.ant-message-notice').filter({ hasText: '请先填写批复意见' }).waitFor();
    await approver.getByLabel('批复意见').fill('同意，路上注意安全');
    await approver.getByRole('button', { name: /同\s*意/ }).click();
    await toast(approver, '操作成功!');
    await approver.waitForURL(/\/work\/start$/);
    await approver.getByText('没有待办任务').waitFor();

    await applicant.reload();
    await applicant.getByRole('tab', { name: '我的申请' }).click();
    const mine = applicant.locator('.ant-table-row').filter({ hasText: '请假流程' }).first();
    await mine.getByText('已同意').waitFor();
    await mine.getByRole('button', { name: '查看' }).click();
    const timeline = applicant.locator('.work-timeline');
    await timeline.getByText('同意，路上注意安全').waitFor();
    for (const text of ['发起申请', '审批人审批', '李四', '已同意']) await timeline.getByText(text, { exact: true }).first().waitFor();
    await applicant.locator('img.work-diagram').waitFor();
    await screenshot(applicant, 'workflow-history');
  }, 180_000);

  it("a second request is withdrawn by 张三 and leaves 李四's to-dos", async () => {
    await startLeave('第二次请假');
    // 首页 lists the approver's to-dos too.
    await approver.goto(`${app.url}/home`);
    await approver.getByTestId('home-todos').getByText('张三的请假流程').waitFor();
    await applicant.goto(`${app.url}/work/start`);
    await applicant.getByRole('tab', { name: '我的申请' }).click();
    const row = applicant.locator('.ant-table-row').filter({ hasText: '审批中' }).first();
    await row.getByRole('button', { name: '撤回' }).click();
    await applicant
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await toast(applicant, '已撤回');
    await applicant.locator('.ant-table-row').filter({ hasText: '已撤回' }).first().waitFor();
    await approver.goto(`${app.url}/work/start`);
    await approver.getByText('没有待办任务').waitFor();
  }, 120_000);

  it('a third is transferred by 李四 to 王五, who approves it', async () => {
    const { processInstanceId } = await startLeave('第三次请假');
    await approver.goto(`${app.url}/work/start`);
    await approver.locator('.ant-table-row').filter({ hasText: '张三' }).getByRole('button', { name: '办理' }).click();
    await approver.getByText('第三次请假').waitFor();
    await approver.getByRole('button', { name: /转\s*交/ }).click();
    const dialog = approver.locator('.ant-modal').filter({ hasText: '转交任务' });
    await dialog.getByLabel('转交给').click();
    await approver.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'wangwu' }).click();
    await dialog.getByLabel('转交说明').fill('我这周出差');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(approver, '已转交');
    await approver.waitForURL(/\/work\/start$/);

    const third = await newPage(browser);
    await loginThroughPage(third, app, 'wangwu', PASSWORD);
    await third.goto(`${app.url}/work/start`);
    await third.locator('.ant-table-row').filter({ hasText: '张三' }).getByRole('button', { name: '办理' }).click();
    await third.getByLabel('批复意见').fill('代为批准');
    await third.getByRole('button', { name: /同\s*意/ }).click();
    await toast(third, '操作成功!');

    await applicant.goto(`${app.url}/work/start`);
    await applicant.getByRole('tab', { name: '我的申请' }).click();
    await applicant.locator('.ant-table-row').filter({ hasText: '已同意' }).first().waitFor();
    const token = await apiLogin(app, 'zhangsan', PASSWORD);
    const history = await apiCall<{ historyActivityName: string; assigneeName: string; comment: string | null }[]>(
      app,
      token,
      'GET',
      `/api/blade-flow/process/history-flow-list?processInstanceId=${processInstanceId}`,
    );
    expect(history.map((h) => [h.historyActivityName, h.assigneeName, h.comment])).toEqual([
      ['发起申请', '张三', null],
      ['审批人审批', '李四', '转交给 王五：我这周出差'],
      ['审批人审批', '王五', '代为批准'],
      ['已同意', '', null],
    ]);
  }, 120_000);
});
