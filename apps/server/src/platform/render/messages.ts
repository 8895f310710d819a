/** What the renderer tells its callers (job logs today; PDF export and subscriptions surface them to users). */
export const renderMessages = {
  unavailable: '服务器未安装 Chromium，无法生成图片',
  launchFailed: 'Chromium 启动失败，无法生成图片',
  timeout: '渲染超时',
  refused: '渲染页面拒绝访问（没有权限或链接已失效）',
  pageError: '渲染页面加载失败',
  httpError: '渲染页面无法打开（HTTP {status}）',
  closed: '渲染服务已关闭',
} as const;
