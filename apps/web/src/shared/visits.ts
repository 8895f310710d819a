import { useEffect } from 'react';
import { API } from '@shutu/contracts/api';
import type { HomeItemKind } from '@shutu/contracts';
import { request } from './api.ts';

/**
 * Records, once per item, that the user opened a board's preview or a slideshow: 首页 lists
 * them under 最近访问 (docs/home.md). Silent: a failed record never disturbs the page. Pass no
 * id while the item is not shown yet, or when the page is opened by a token (a renderer).
 */
export function useRecordVisit(kind: HomeItemKind, id: number | null | undefined): void {
  useEffect(() => {
    if (!id) return;
    request<null>(API.home.visits, { method: 'POST', body: { kind, id }, authRedirect: false }).catch(() => undefined);
  }, [kind, id]);
}
