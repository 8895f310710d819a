import type { Page, ShareAuthSave, ShareLink, ShareLinkCreate, ShareLinkUpdate, ShareOpenResult } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts/api';
import { MAX_PAGE_SIZE } from '@shutu/contracts/constants';
import { http, request } from '../../shared/api.ts';
import { formatDateTime as formatInstant } from '../../shared/time.ts';

export interface ShareListParams {
  current: number;
  size: number;
  title?: string;
}

export const shareKeys = {
  all: ['share'] as const,
  list: (p: ShareListParams) => ['share', 'list', p] as const,
  accountLinks: ['share', 'account-links'] as const,
  auth: (dataPermId: number) => ['share', 'auth', dataPermId] as const,
};

export const createShareLink = (body: ShareLinkCreate) => request<ShareLink>(API.share.links, { method: 'POST', body });
export const fetchShareLinks = ({ current, size, title }: ShareListParams) => http.get<Page<ShareLink>>(API.share.links, { current, size, title });
/** Every account-matching link (the 第三方链接 tab lists them; administrators see all). */
export const fetchAccountLinks = () => http.get<Page<ShareLink>>(API.share.links, { current: 1, size: MAX_PAGE_SIZE, linkType: 1 }).then((p) => p.records);
export const updateShareLink = (id: number, body: ShareLinkUpdate) => request<ShareLink>(apiPath(API.share.link, { id }), { method: 'PUT', body });
export const deleteShareLink = (id: number) => request<null>(apiPath(API.share.link, { id }), { method: 'DELETE' });
export const fetchShareAuth = (dataPermId: number) => http.get<number[]>(API.share.auth, { dataPermId });
export const saveShareAuth = (body: ShareAuthSave) => request<number[]>(API.share.auth, { method: 'PUT', body });

/**
 * Opens a link: sends the stored session if there is one (an account-matching link needs it);
 * its 401 (password or login wanted) must not send anyone to the login page by itself.
 */
export const openShareLink = (code: string, password?: string) =>
  request<ShareOpenResult>(apiPath(API.share.open, { code }), { method: 'POST', body: password ? { password } : {}, authRedirect: false }).then((r) => r.data);

/** Copies text to the clipboard; false when the browser refuses (no permission, not a secure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** yyyy-MM-dd HH:mm of an ISO time, on the installation's clock (shared/time.ts). */
export const formatDateTime = (iso: string | null | undefined): string => formatInstant(iso, 'minute');
