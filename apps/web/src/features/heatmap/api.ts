import type { HeatmapPhone, HeatmapQuery, HeatmapResult, HeatmapTitle } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';

export const heatmapKeys = {
  titles: ['heatmap', 'titles'] as const,
};

export const fetchHeatmapTitles = () => http.get<HeatmapTitle[]>(API.heatmap.titles);
export const lookupHeatmapPhone = (phone: string) => http.get<HeatmapPhone>(API.heatmap.phone, { phone });
export const fetchHeatmapEvents = (query: HeatmapQuery) => http.post<HeatmapResult>(API.heatmap.events, query);
