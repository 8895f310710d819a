import { useQuery } from '@tanstack/react-query';
import type { DatasetField, DatasetListItem, Page } from '@shutu/contracts';
import { API, MAX_PAGE_SIZE } from '@shutu/contracts';
import { http } from '../../../../shared/api.ts';
import { datasetKeys, fetchDatasetFields } from '../../../dataset/api.ts';

/** The datasets the panel's picker offers: every dataset the caller may read (the list is visibility-filtered on the server). */
const allDatasetsParams = { current: 1, size: MAX_PAGE_SIZE };

export function useReadableDatasets() {
  return useQuery({
    queryKey: [...datasetKeys.listAll, 'readable'],
    queryFn: () => http.get<Page<DatasetListItem>>(API.dataset.cubes, allDatasetsParams).then((p) => p.records),
    staleTime: 60_000,
  });
}

/** The fields a chart may use: the dataset's fields except hidden ones. */
export function useChartFields(cubeId: number | null | undefined) {
  return useQuery({
    queryKey: datasetKeys.fields(cubeId ?? 0),
    queryFn: () => fetchDatasetFields(cubeId!),
    enabled: !!cubeId,
    staleTime: 60_000,
    select: (fields: DatasetField[]) => fields.filter((f) => f.hiddenStatus !== 1),
  });
}

/** A field's title by id, or the id itself while the fields load. */
export function fieldTitle(fields: readonly DatasetField[] | undefined, id: number): string {
  return fields?.find((f) => f.id === id)?.columnTitle ?? String(id);
}
