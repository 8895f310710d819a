import { describe, expect, it } from 'vitest';
import { dictSaveSchema, loginRequestSchema, passwordUpdateSchema, userCreateSchema, apiPath, API, pageQuerySchema } from './index.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;
const md5 = 'e10adc3949ba59abbe56e057f20f883e';

describe('dictionary form', () => {
  it('names each missing field in the spec words', () => {
    const result = dictSaveSchema.safeParse({});
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['请输入字典编号', '请输入字典键值', '请输入字典名称', '请输入字典排序', '请选择封存']));
  });

  it('treats blank text as missing and trims what is kept', () => {
    expect(firstMessage(dictSaveSchema.safeParse({ code: '   ', dictKey: 1, dictValue: 'x', sort: 1, isSealed: 0 }))).toBe('请输入字典编号');
    const ok = dictSaveSchema.parse({ code: ' sex ', dictKey: 1, dictValue: ' 男 ', sort: 1, isSealed: 0, remark: '' });
    expect(ok).toMatchObject({ code: 'sex', dictValue: '男', remark: null, parentId: 0 });
  });

  it('refuses a key that is not a whole number', () => {
    expect(firstMessage(dictSaveSchema.safeParse({ code: 'a', dictKey: 1.5, dictValue: 'x', sort: 1, isSealed: 0 }))).toBe('请输入字典键值');
    expect(firstMessage(dictSaveSchema.safeParse({ code: 'a', dictKey: '1; drop table x', dictValue: 'x', sort: 1, isSealed: 0 }))).toBe('请输入字典键值');
  });
});

describe('passwords on the wire', () => {
  it('accepts only an MD5 hex digest and lower-cases it', () => {
    expect(loginRequestSchema.parse({ account: 'admin', password: md5.toUpperCase() }).password).toBe(md5);
    expect(firstMessage(loginRequestSchema.safeParse({ account: 'admin', password: '123456' }))).toBe('密码须以MD5摘要发送');
  });

  it('checks that the new password is confirmed and differs from the old one', () => {
    const other = 'c33367701511b4f6020ec61ded352059';
    expect(firstMessage(passwordUpdateSchema.safeParse({ oldPassword: md5, newPassword: other, confirmPassword: md5 }))).toBe('两次输入的密码不一致');
    expect(firstMessage(passwordUpdateSchema.safeParse({ oldPassword: md5, newPassword: md5, confirmPassword: md5 }))).toBe('新密码不能与原密码相同');
  });
});

describe('users', () => {
  it('requires an account that starts with a letter', () => {
    expect(firstMessage(userCreateSchema.safeParse({ account: '1abc', password: md5, name: '张三' }))).toBe(
      '账号须以字母开头，只含字母、数字或下划线，长度2-32',
    );
  });

  it('refuses an extension that is not JSON', () => {
    expect(firstMessage(userCreateSchema.safeParse({ account: 'zhang', password: md5, name: '张三', userExtJson: '{oops' }))).toBe('扩展信息须为合法的JSON');
  });
});

describe('paging and paths', () => {
  it('caps page size at the large-list size of 10000', () => {
    expect(pageQuerySchema.safeParse({ current: 1, size: 10001 }).success).toBe(false);
    expect(pageQuerySchema.parse({ current: '2', size: '10000' })).toEqual({ current: 2, size: 10000 });
  });

  it('fills path parameters, escaping them', () => {
    expect(apiPath(API.org.user, { id: 7 })).toBe('/api/org/users/7');
    expect(apiPath(API.dict.dict, { id: '../x' })).toBe('/api/dict/..%2Fx');
  });
});
