import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { setMessageApi } from '../shared/notify.ts';

dayjs.locale('zh-cn');

export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', 'Helvetica Neue', Arial, sans-serif";

/** No animations for people who asked for less motion, nor for automated browsers (steady screenshots). */
function prefersNoMotion(): boolean {
  if (typeof window === 'undefined') return false;
  if (navigator.webdriver) return true;
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Lets code outside components (query caches) use the themed, App-scoped message API. */
function NotifierBridge(): null {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setMessageApi(message);
    return () => setMessageApi(null);
  }, [message]);
  return null;
}

/** antd's theme, locale and App context (message API): every page but /login, which is drawn without antd. */
export function AntdProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider
      locale={zhCN}
      button={{ autoInsertSpace: false }}
      theme={{
        algorithm: theme.defaultAlgorithm,
        token: { motion: !prefersNoMotion(), colorPrimary: '#1f6bff', borderRadius: 6, fontFamily: FONT_FAMILY, colorBgLayout: '#f3f5f9' },
        components: {
          Layout: { headerBg: '#0f1b33', headerHeight: 56, headerPadding: '0 20px', siderBg: '#ffffff' },
          Menu: { itemBorderRadius: 6, itemMarginInline: 8, groupTitleColor: '#8a94a6' },
          Table: { headerBg: '#f7f8fa', rowSelectedBg: '#eef4ff', rowSelectedHoverBg: '#e3edff' },
          Card: { headerFontSize: 15 },
        },
      }}
    >
      <AntApp message={{ maxCount: 3, top: 64 }}>
        <NotifierBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/** Everything a page needs around it (tests render pages in it; the app splits it: main.tsx, router.tsx). */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProviders>{children}</AntdProviders>
    </QueryClientProvider>
  );
}
