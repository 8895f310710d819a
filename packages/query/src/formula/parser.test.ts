import { describe, expect, it } from 'vitest';
import { QueryError } from '../errors.ts';
import { tokenize } from './lexer.ts';
import { parseFormula, type FormulaNode } from './parser.ts';

const refusal = (formula: string): QueryError => {
  try {
    parseFormula(formula);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(formula)} to be refused`);
};

/** A compact, parenthesised rendering of the tree, to check structure and precedence. */
function show(n: FormulaNode): string {
  switch (n.t) {
    case 'num':
      return n.text;
    case 'str':
      return `'${n.value}'`;
    case 'null':
      return 'NULL';
    case 'bool':
      return String(n.value);
    case 'field':
      return n.by === 'title' ? `[${n.key}]` : `{${n.key}}`;
    case 'param':
      return n.quoted ? `'$\{${n.key}}'` : `$\{${n.key}}`;
    case 'neg':
      return `-${show(n.arg)}`;
    case 'not':
      return `NOT ${show(n.arg)}`;
    case 'bin':
      return `(${show(n.left)} ${n.op} ${show(n.right)})`;
    case 'isNull':
      return `(${show(n.arg)} IS ${n.negated ? 'NOT ' : ''}NULL)`;
    case 'in':
      return `(${show(n.arg)} ${n.negated ? 'NOT ' : ''}IN ${n.list.map(show).join(',')})`;
    case 'between':
      return `(${show(n.arg)} ${n.negated ? 'NOT ' : ''}BETWEEN ${show(n.low)} ${show(n.high)})`;
    case 'case':
      return `CASE${n.operand ? ` ${show(n.operand)}` : ''}${n.whens.map((w) => ` ${show(w.when)}->${show(w.then)}`).join('')}${n.else ? ` ELSE ${show(n.else)}` : ''}`;
    case 'call':
      return `${n.name}(${n.distinct ? 'DISTINCT ' : ''}${n.star ? '*' : n.args.map(show).join(', ')})`;
  }
}

describe('lexer', () => {
  it('reads numbers, strings, field references, names and operators with positions', () => {
    expect(tokenize("sum([金额]) >= 1.5 AND {12} <> 'it''s'")).toEqual([
      { type: 'ident', value: 'SUM', pos: 0 },
      { type: 'op', value: '(', pos: 3 },
      { type: 'field', value: '金额', pos: 4 },
      { type: 'op', value: ')', pos: 8 },
      { type: 'op', value: '>=', pos: 10 },
      { type: 'num', value: '1.5', pos: 13 },
      { type: 'ident', value: 'AND', pos: 17 },
      { type: 'fieldId', value: '12', pos: 21 },
      { type: 'op', value: '<>', pos: 26 },
      { type: 'str', value: "it's", pos: 29 },
      { type: 'eof', value: '', pos: 36 },
    ]);
  });

  it('keeps comment and separator characters inside strings as text', () => {
    expect(tokenize("'-- /* ; */ \\'")[0]).toEqual({ type: 'str', value: '-- /* ; */ \\', pos: 0 });
  });

  it('reads global parameter references, bare and quoted', () => {
    expect(tokenize("[金额] * ${rate} + '${city_1}'")).toEqual([
      { type: 'field', value: '金额', pos: 0 },
      { type: 'op', value: '*', pos: 5 },
      { type: 'param', value: 'rate', pos: 7 },
      { type: 'op', value: '+', pos: 15 },
      { type: 'param', value: 'city_1', pos: 17, quoted: true },
      { type: 'eof', value: '', pos: 28 },
    ]);
    expect(tokenize('${a}${B2}').map((t) => [t.type, t.value, t.pos])).toEqual([
      ['param', 'a', 0],
      ['param', 'B2', 4],
      ['eof', '', 9],
    ]);
  });

  it('keeps a string that only contains a reference among other text as a plain string', () => {
    expect(tokenize("'abc ${x}'")[0]).toEqual({ type: 'str', value: 'abc ${x}', pos: 0 });
    expect(tokenize("'${x} '")[0]).toEqual({ type: 'str', value: '${x} ', pos: 0 });
    expect(tokenize("'${1x}'")[0]).toEqual({ type: 'str', value: '${1x}', pos: 0 });
    expect(tokenize("'$'")[0]).toEqual({ type: 'str', value: '$', pos: 0 });
  });
});

describe('parser', () => {
  it.each([
    ['1 + 2 * 3 - 4', '((1 + (2 * 3)) - 4)'],
    ['-[a] * -(1 + 2)', '(-[a] * -(1 + 2))'],
    ['[a] > 1 AND [b] < 2 OR NOT [c] = 3', '((([a] > 1) AND ([b] < 2)) OR NOT ([c] = 3))'],
    ['[a] IS NOT NULL AND [b] NOT IN (1, 2) AND [c] BETWEEN 1 AND 2', '((([a] IS NOT NULL) AND ([b] NOT IN 1,2)) AND ([c] BETWEEN 1 2))'],
    ["CASE WHEN [a] > 1 THEN 'x' ELSE 'y' END", "CASE ([a] > 1)->'x' ELSE 'y'"],
    ["case [a] when 1 then 'x' when 2 then 'y' end", "CASE [a] 1->'x' 2->'y'"],
    ['count(distinct {7}) + Count(*)', '(COUNT(DISTINCT {7}) + COUNT(*))'],
    ['ROUND([金额] / 3, 2)', 'ROUND(([金额] / 3), 2)'],
    ['IF(TRUE, NULL, FALSE)', 'IF(true, NULL, false)'],
    ['[a] != 1', '([a] <> 1)'],
    ['  ((([ 数 量 ])))  ', '[数 量]'],
    ["[a] * ${rate} + IF([b] = '${city}', 1, 0)", "(([a] * ${rate}) + IF(([b] = '${city}'), 1, 0))"],
    ["'abc ${x}'", "'abc ${x}'"],
  ])('%s', (formula, tree) => {
    expect(show(parseFormula(formula))).toBe(tree);
  });
});

describe('refusals carry the position', () => {
  it.each<[string, number, string]>([
    ['', 0, '公式不能为空'],
    ['1; DROP TABLE t', 1, '公式中不能包含分号'],
    ['[金额] -- comment', 5, '公式中不能包含注释'],
    ['[金额] /* c */', 5, '公式中不能包含注释'],
    ['[金额] # c', 5, '公式中不能包含注释'],
    ['"金额"', 0, '字符串请使用单引号'],
    ['`t`.`c`', 0, '字符串请使用单引号'],
    ["'abc", 0, '字符串缺少结束的单引号'],
    ['[金额', 0, '字段引用缺少“]”'],
    ['[] + 1', 0, '字段引用不正确'],
    ['{a b}', 0, '字段编号引用不正确'],
    ['1 2', 2, '公式只能包含一个表达式'],
    ['SUM([a]) SUM([b])', 9, '公式只能包含一个表达式'],
    ['amount + 1', 0, '未知的标识符“AMOUNT”，字段请写成[字段标题]'],
    ['1 +', 3, '公式不完整'],
    ['(1 + 2', 6, '缺少“)”'],
    ['CASE WHEN 1 THEN 2', 18, '缺少END'],
    ['CASE END', 5, 'CASE 至少需要一个 WHEN'],
    ['[a] IS 1', 7, '缺少NULL'],
    ['1 + * 2', 4, '不应出现“*”'],
    ['12abc', 2, '数字格式不正确'],
    ['1.', 1, '数字格式不正确'],
    ['[a] || [b]', 4, '请使用CONCAT函数拼接字符串'],
    ['[a] % 2', 4, '请使用MOD函数取余'],
    ['SUM（[a]）', 3, '请使用英文标点，不能使用“（”'],
    ['1 @ 2', 2, '无法识别的字符“@”'],
    ['1 + \\x', 4, '无法识别的字符“\\”'],
    ['[金额] * $rate', 7, '无法识别的字符“$”，全局参数请写成${参数key}'],
    ['1 + $', 4, '无法识别的字符“$”，全局参数请写成${参数key}'],
    ['[金额] * ${1rate}', 7, '全局参数引用不正确，请写成${参数key}'],
    ['${rate', 0, '全局参数引用不正确，请写成${参数key}'],
    ['${ rate }', 0, '全局参数引用不正确，请写成${参数key}'],
    ['${rate} ${rate}', 8, '公式只能包含一个表达式'],
    ["1 + * '${x}'", 4, '不应出现“*”'],
    ["1 + '${x}' '${x}'", 11, '公式只能包含一个表达式'],
  ])('%j at %i', (formula, position, detail) => {
    const error = refusal(formula);
    expect(error.kind).toBe('formula');
    expect(error.status).toBe(400);
    expect(error.position).toBe(position);
    expect(error.message).toBe(`公式第${position + 1}个字符处有误：${detail}`);
  });

  it('limits nesting and length', () => {
    expect(refusal(`${'('.repeat(100)}1${')'.repeat(100)}`).message).toContain('公式嵌套层数过多');
    expect(refusal('-'.repeat(10) + '1').message).toContain('公式中不能包含注释');
    expect(refusal('- '.repeat(100) + '1').message).toContain('公式嵌套层数过多');
    expect(refusal('NOT '.repeat(100) + '1').message).toContain('公式嵌套层数过多');
    expect(refusal('1+'.repeat(2001) + '1').message).toContain('公式长度不能超过4000个字符');
  });
});
