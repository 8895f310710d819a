import { DEFAULT_SYSTEM_NAME } from '@shutu/contracts/constants';
import type { SystemConfig, SystemConfigResponse } from '@shutu/contracts';
import { useQuery } from '@tanstack/react-query';
import { API, http } from '../../shared/api.ts';
import { setDisplayTimeZone } from '../../shared/time.ts';

export const systemKeys = { config: ['system', 'config'] as const };
/** 文件表目标数据源 (issue 27): read by the settings card and the upload picker. */
export const fileTableSourceKey = ['system', 'fileTableSource'] as const;

/** The public config; its zone becomes the one every time is shown in (shared/time.ts). */
export async function fetchSystemConfig(): Promise<SystemConfigResponse> {
  const config = await http.get<SystemConfigResponse>(API.system.config);
  setDisplayTimeZone(config.timeZone);
  return config;
}
export const saveSystemConfig = (config: SystemConfig) => http.put<SystemConfigResponse>(API.system.config, config);

const useSystemConfig = () => useQuery({ queryKey: systemKeys.config, queryFn: fetchSystemConfig, staleTime: 5 * 60_000 });

/** The configured system name (public: the login page shows it too). */
export function useSystemName(): string {
  const { data } = useSystemConfig();
  return data?.systemName || DEFAULT_SYSTEM_NAME;
}

/**
 * Whether the installation's time zone is known yet: the app shell waits for it before showing a
 * page, so no time is ever shown on the wrong clock. A failed call does not block (Asia/Shanghai).
 */
export function useTimeZoneReady(): boolean {
  return !useSystemConfig().isPending;
}
