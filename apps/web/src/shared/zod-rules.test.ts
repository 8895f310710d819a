import { describe, expect, it } from 'vitest';
import {
  BOARD_TITLE_MAX_LENGTH,
  boardMessages,
  boardSaveSchema,
  datasetMessages,
  dataSourceSaveSchema,
  departmentSaveSchema,
  dictSaveSchema,
  globalParamSaveSchema,
  loginRequestSchema,
  PARAM_KEY_MAX_LENGTH,
  PARAM_KEY_PATTERN,
  permGroupSaveSchema,
  permMessages,
  pptSettingsSchema,
  SHARE_PASSWORD_LENGTH,
  shareLinkCreateSchema,
  shareMessages,
  subscriptionSaveSchema,
  userCreateSchema,
  zhCN,
} from '@shutu/contracts';
import type { FormRule } from 'antd';
import { zodRules } from './zod-rules.ts';

/** The rules without their functions, for comparing. */
const plain = (rules: FormRule[]) =>
  rules.map((r) => (typeof r === 'function' ? 'fn' : Object.fromEntries(Object.entries(r).filter(([, v]) => typeof v !== 'function'))));

describe('zodRules', () => {
  it('reads a required, trimmed text: its message, whitespace, and the trimmed length', () => {
    const rules = zodRules(boardSaveSchema, 'title');
    expect(plain(rules)).toEqual([{ required: true, whitespace: true, message: boardMessages.titleRequired }, { max: BOARD_TITLE_MAX_LENGTH }]);
    // The length is measured as the server measures it: trimmed.
    const max = rules[1] as { transform?: (v: unknown) => unknown };
    expect(max.transform?.('  abc  ')).toBe('abc');
  });

  it('reads a pattern and its message after required and length', () => {
    expect(plain(zodRules(globalParamSaveSchema, 'paramKey'))).toEqual([
      { required: true, whitespace: true, message: datasetMessages.paramKeyRequired },
      { max: PARAM_KEY_MAX_LENGTH },
      { pattern: PARAM_KEY_PATTERN, message: datasetMessages.paramKeyInvalid },
    ]);
  });

  it('keeps only the kinds asked for (a password is checked as typed, not as its hash)', () => {
    expect(plain(zodRules(loginRequestSchema, 'password', { only: ['required'] }))).toEqual([{ required: true, message: zhCN.passwordRequired }]);
    expect(plain(zodRules(userCreateSchema, 'account', { only: ['required', 'pattern'] })).map((r) => Object.keys(r as object))).toEqual([
      ['required', 'whitespace', 'message'],
      ['pattern', 'message'],
    ]);
  });

  it('takes the message of the type for numbers and unions, and their bounds', () => {
    expect(plain(zodRules(dictSaveSchema, 'sort'))).toEqual([
      { required: true, message: zhCN.dictSortRequired },
      { type: 'number', min: -2147483648, message: zhCN.dictSortRequired },
      { type: 'number', max: 2147483647, message: zhCN.dictSortRequired },
    ]);
    expect(plain(zodRules(dictSaveSchema, 'isSealed'))).toEqual([{ required: true, message: zhCN.dictSealedRequired }]);
    expect(plain(zodRules(dataSourceSaveSchema, 'type'))).toEqual([{ required: true, message: zhCN.dsTypeRequired }]);
  });

  it('turns positive() on an integer into a minimum of 1', () => {
    expect(plain(zodRules(permGroupSaveSchema, 'typeId'))).toEqual([
      { required: true, message: permMessages.groupIncomplete },
      { type: 'number', min: 1, message: permMessages.groupIncomplete },
    ]);
  });

  it('makes defaulted, optional and nullish fields optional, and looks through preprocess', () => {
    expect(plain(zodRules(subscriptionSaveSchema, 'triggerHour'))).toEqual([
      { type: 'number', min: 0 },
      { type: 'number', max: 23 },
    ]);
    expect(plain(zodRules(pptSettingsSchema, 'interval')).some((r) => (r as { required?: boolean }).required)).toBe(false);
    expect(plain(zodRules(shareLinkCreateSchema, 'password'))).toEqual([
      { min: SHARE_PASSWORD_LENGTH.min, message: shareMessages.passwordLength },
      { max: SHARE_PASSWORD_LENGTH.max, message: shareMessages.passwordLength },
    ]);
  });

  it('refuses a field the schema does not have', () => {
    expect(() => zodRules(departmentSaveSchema, 'nope')).toThrow(/no field nope/);
  });
});
