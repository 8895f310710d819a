/** The public face of the read module: other modules import only what is exported here (the boundary check enforces it). */
export { refusing } from './compile.ts';
export { compileRead, openRead, readPage, type OpenRead, type ReadSubject } from './open.ts';
export { readPages, type PageAnswer, type PageRead } from './grouped.ts';
export { previewModel } from './preview.ts';
export { readCount, readRows, streamRows } from './run.ts';
export { checkUserSql, previewUserSql } from './user-sql.ts';
export { checkBoundSql, readBoundSql, type BoundRead, type BoundStatement } from './api-sql.ts';
export { copyBoundSqlToCsvFile, streamBoundSql, writesCsvFiles } from './bound-stream.ts';
export {
  dropMemberTable,
  loadMemberCsv,
  loadMemberSelect,
  loadMemberTable,
  memberTableQuery,
  memberWarehouse,
  newMemberTableName,
  planRead,
  streamMemberTable,
} from './members.ts';
