import type { BoardCategory, BoardKind, BoardListItem, PermGroup } from '@shutu/contracts';

/** Shared data of the board list and grant tests. */
export const boardCategories = (kind: BoardKind = 'visual'): BoardCategory[] => [
  { id: 1, kind, categoryKey: null, categoryValue: '经营分析', parentId: 0, sortNum: 1, createUserId: 1 },
  { id: 2, kind, categoryKey: null, categoryValue: '华东大区', parentId: 1, sortNum: 1, createUserId: 1 },
  { id: 3, kind, categoryKey: null, categoryValue: '财务', parentId: 0, sortNum: 2, createUserId: 9 },
];

const stamp = { createTime: '2026-01-02T03:04:05.000Z', updateTime: '2026-01-02T03:04:05.000Z' };

export const board = (id: number, title: string, extra: Partial<BoardListItem> = {}): BoardListItem => ({
  ...stamp,
  id,
  kind: 'visual',
  title,
  categoryId: 1,
  categoryName: '经营分析',
  backgroundUrl: null,
  type: 'screen',
  publicStatus: 1,
  sortNum: id,
  createUserId: 1,
  createUserName: '管理员',
  editable: true,
  ...extra,
});

export const group = (id: number, permName: string, typeId: number, typeName: string): PermGroup => ({
  ...stamp,
  id,
  permName,
  typeId,
  typeName,
  permJson: { dpList: [], roleList: [], userList: [], blackUserList: [] },
});

export const page = <T>(records: T[], total = records.length, size = 50) => ({ records, total, current: 1, size });
