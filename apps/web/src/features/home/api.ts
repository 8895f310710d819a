import { API, apiPath, pptRoutes, type Home, type HomeItem } from '@shutu/contracts';
import { http, request } from '../../shared/api.ts';
import { previewPath } from '../board/api.ts';

export const homeKeys = { home: ['home'] as const };

export const fetchHome = () => http.get<Home>(API.home.home);

/** Stars or un-stars a board; the result's msg is the server's (已收藏 / 已取消收藏). */
export const setBoardFavourite = (id: number, favourite: boolean) =>
  request<null>(apiPath(API.home.favouriteBoard, { id }), { method: favourite ? 'PUT' : 'DELETE' });

/** Where a card opens: a board's preview; a slideshow's viewer, with the flag of a favourite (mine=1) or archive (archive=1). */
export function itemPath(item: HomeItem): string {
  if (item.kind === 'board') return previewPath(item.id);
  const flag = item.pptVisualType === 1 ? '?mine=1' : item.pptVisualType === 2 ? '?archive=1' : '';
  return `${pptRoutes.view(item.id)}${flag}`;
}
