import { useQuery } from '@tanstack/react-query';
import { aiKeys, fetchAiStatus } from './api.ts';

/** Whether the AI buttons work, and what to configure when they do not (asked when a panel opens). */
export function useAiStatus(enabled: boolean) {
  return useQuery({ queryKey: aiKeys.status, queryFn: fetchAiStatus, enabled, staleTime: 30_000 });
}
