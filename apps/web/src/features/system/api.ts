import { DEFAULT_SYSTEM_NAME, type SystemConfig } from '@shutu/contracts';
import { useQuery } from '@tanstack/react-query';
import { API, http } from '../../shared/api.ts';

export const systemKeys = { config: ['system', 'config'] as const };

export const fetchSystemConfig = () => http.get<SystemConfig>(API.system.config);
export const saveSystemConfig = (config: SystemConfig) => http.put<SystemConfig>(API.system.config, config);

/** The configured system name (public: the login page shows it too). */
export function useSystemName(): string {
  const { data } = useQuery({ queryKey: systemKeys.config, queryFn: fetchSystemConfig, staleTime: 5 * 60_000 });
  return data?.systemName || DEFAULT_SYSTEM_NAME;
}
