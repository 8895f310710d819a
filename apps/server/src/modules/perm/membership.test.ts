import { describe, expect, it } from 'vitest';
import type { PermJson } from '@shutu/contracts';
import { deptLineage, groupsOfUser } from './membership.ts';

const json = (p: Partial<Record<keyof PermJson, number[]>>): PermJson => ({
  dpList: (p.dpList ?? []).map((id) => ({ id, name: '' })),
  roleList: (p.roleList ?? []).map((id) => ({ id, name: '' })),
  userList: (p.userList ?? []).map((id) => ({ id, name: '' })),
  blackUserList: (p.blackUserList ?? []).map((id) => ({ id, name: '' })),
});

// 1 总部 ─ 2 研发部 ─ 3 前端组;  4 销售部
const parentOf = new Map([
  [1, 0],
  [2, 1],
  [3, 2],
  [4, 0],
]);

describe('deptLineage', () => {
  it('walks up to the top', () => {
    expect([...deptLineage(3, parentOf)]).toEqual([3, 2, 1]);
    expect([...deptLineage(null, parentOf)]).toEqual([]);
  });
  it('stops on a cycle instead of looping', () => {
    expect([
      ...deptLineage(
        5,
        new Map([
          [5, 6],
          [6, 5],
        ]),
      ),
    ]).toEqual([5, 6]);
  });
});

describe('groupsOfUser', () => {
  const groups = [
    { id: 10, permJson: json({ userList: [7] }) },
    { id: 11, permJson: json({ dpList: [2] }) },
    { id: 12, permJson: json({ roleList: [30] }) },
    { id: 13, permJson: json({ dpList: [1], blackUserList: [7] }) },
    { id: 14, permJson: json({ userList: [8], blackUserList: [8] }) },
  ];
  it('finds membership by user, by department and sub-department, and by role', () => {
    expect(groupsOfUser(groups, { userId: 7, deptId: null, roleIds: [] }, parentOf)).toEqual([10]);
    expect(groupsOfUser(groups, { userId: 9, deptId: 2, roleIds: [] }, parentOf)).toEqual([11, 13]);
    expect(groupsOfUser(groups, { userId: 9, deptId: 3, roleIds: [] }, parentOf)).toEqual([11, 13]);
    expect(groupsOfUser(groups, { userId: 9, deptId: 4, roleIds: [30] }, parentOf)).toEqual([12]);
  });
  it('never counts a black-listed user, even when listed by name or department', () => {
    expect(groupsOfUser(groups, { userId: 7, deptId: 3, roleIds: [] }, parentOf)).toEqual([10, 11]);
    expect(groupsOfUser(groups, { userId: 8, deptId: null, roleIds: [] }, parentOf)).toEqual([]);
  });
  it('gives an outsider no group', () => {
    expect(groupsOfUser(groups, { userId: 99, deptId: 4, roleIds: [31] }, parentOf)).toEqual([]);
  });
});
