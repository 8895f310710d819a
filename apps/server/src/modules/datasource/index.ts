/** The public face of the datasource module: other modules import only what is exported here (the boundary check enforces it). */
export { getDataSource, getSourceMetadata, getSourceWriter, type SourceMetadata, type SourceWriter } from './registry.ts';
export { builtinWarehouseAppender, type WarehouseAppender } from './append.ts';
export { findBuiltinRow } from './repo.ts';
export { findOwnWarehouseRow } from './warehouse.ts';
export { assertSourceUsable, assertTablesUsable, tableCheckerFor, type TableChecker } from './table-access.ts';
export { sourceColumns, sourceViews, statementColumns, viewStatements, type SourceView } from './views.ts';
