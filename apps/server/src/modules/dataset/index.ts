/** The public face of the dataset module: other modules import only what is exported here (the boundary check enforces it). */
export { cubeRestriction, editorPreviewPermissions, requireViewable } from './access.ts';
export { saveCategory } from './categories.ts';
export { paramKeysExisting } from './filter-repo.ts';
export { keyOf, resolveParams, treeFieldKeys } from './model.ts';
export { openDatasetRead, savedOrder, type DatasetRead } from './read.ts';
export { containsPattern, listFields, type FieldRow } from './repo.ts';
export { saveDataset, type SaveCaller } from './save.ts';
export { datasetsUsingTable, type TableUsage } from './view-usage.ts';
