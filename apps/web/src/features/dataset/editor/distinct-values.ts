import { useCallback } from 'react';
import type { DistinctValues, PickOption } from '../filter/pick-list.ts';
import { previewModel } from './api.ts';
import type { EditorModel } from './model-state.ts';
import { buildPreviewBody } from './payload.ts';

/** Values a pick-list of a field's own values offers at most. */
export const DISTINCT_VALUES_MAX = 1000;

/**
 * The field's distinct values for the editor's filter dialogs (enumSource 1): a grouped read of
 * the model being edited through the model preview, so the editor's permissions apply (the
 * tables the user may use; while editing, the dataset's filters for their groups).
 */
export function useEditorDistinctValues(model: EditorModel, datasourceId: number, cubeDataId: number | null): DistinctValues {
  return useCallback(
    async (cubeColumnId) => {
      const body = buildPreviewBody(model, datasourceId, cubeDataId);
      if (!body) return [];
      const fieldId = cubeColumnId as string | number;
      const result = await previewModel({ ...body, request: { dimensions: [{ fieldId }], sort: [{ fieldId }], limit: DISTINCT_VALUES_MAX } });
      return result.dataList.flatMap((row): PickOption[] => {
        const value = row.d0;
        return value === null || value === undefined || value === '' ? [] : [{ value: String(value), label: String(value) }];
      });
    },
    [model, datasourceId, cubeDataId],
  );
}
