/**
 * The demo warehouse: deterministic, seeded telecom demo data for the embedded DuckDB warehouse.
 * See docs/warehouse.md for every table, the knobs and measured generation times.
 */
export { generateDemoWarehouse, GENERATOR_VERSION, countRows, readMeta, type DemoMeta, type GenerateResult, type GenerateStep } from './generate.ts';
export { ensureDemoWarehouse, ensureDemoWarehouseOn, staleReason, type EnsureOptions, type EnsureResult } from './ensure.ts';
export { tableChecksums } from './checksum.ts';
export {
  makePlan,
  seedDay,
  SEED_DAY_OFFSET_MINUTES,
  DEFAULT_ANCHOR_DATE,
  DEFAULT_SCALE,
  DEFAULT_SEED,
  MIN_SCALE,
  MAX_SCALE,
  type DemoPlan,
  type DemoWarehouseOptions,
} from './plan.ts';
export { DEMO_TABLES, DEMO_TABLE_NAMES, META_TABLE, ORDER_DATA_VIEW, type TableSpec, type ColumnSpec } from './schema.ts';
export { SITE_ORIGIN, WEB_PAGES, type WebPage } from './data-cdp.ts';
