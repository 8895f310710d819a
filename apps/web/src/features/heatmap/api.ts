import type { HeatmapFrame, HeatmapPhone, HeatmapQuery, HeatmapResult, HeatmapTitle, TrackSite, TrackSiteCreate, TrackSiteUpdate } from '@shutu/contracts';
import { API, ApiError, getToken, http } from '../../shared/api.ts';
import { hmt } from './messages.ts';

export const heatmapKeys = {
  titles: ['heatmap', 'titles'] as const,
  frame: (title: string) => ['heatmap', 'frame', title] as const,
  shot: (title: string, width: number) => ['heatmap', 'shot', title, width] as const,
  sites: ['heatmap', 'sites'] as const,
};

export const fetchHeatmapTitles = () => http.get<HeatmapTitle[]>(API.heatmap.titles);
export const lookupHeatmapPhone = (phone: string) => http.get<HeatmapPhone>(API.heatmap.phone, { phone });
export const fetchHeatmapEvents = (query: HeatmapQuery) => http.post<HeatmapResult>(API.heatmap.events, query);
export const fetchHeatmapFrame = (title: string) => http.get<HeatmapFrame>(API.heatmap.frame, { title });

/** The server's screenshot of a page at `width` (a PNG behind the bearer token, so fetched as a blob). */
export async function fetchHeatmapShot(title: string, width: number): Promise<Blob> {
  const token = getToken();
  const query = new URLSearchParams({ title, width: String(width) });
  let response: Response;
  try {
    response = await fetch(`${API.heatmap.screenshot}?${query}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, hmt.shotFailed);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(response.status, body?.msg || hmt.shotFailed);
  }
  return response.blob();
}

const siteUrl = (id: number) => `${API.heatmap.sites}/${id}`;
export const fetchTrackSites = () => http.get<TrackSite[]>(API.heatmap.sites);
export const createTrackSite = (body: TrackSiteCreate) => http.post<TrackSite>(API.heatmap.sites, body);
export const updateTrackSite = (id: number, body: TrackSiteUpdate) => http.put<TrackSite>(siteUrl(id), body);
export const deleteTrackSite = (id: number) => http.del<null>(siteUrl(id));
