import { MAX_FORMULA_LENGTH } from '@shutu/contracts';
import { formulaError } from '../errors.ts';

/**
 * Tokens of the computed-field formula language (one expression, see parser.ts):
 *   number      12   3.5
 *   string      '上海'   'it''s'        (single quotes; a quote inside is doubled)
 *   field       [字段标题]               (by title)   {123}   (by field id)
 *   parameter   ${paramKey}              a global parameter; '${paramKey}' (a string whose whole
 *                                        content is exactly that) is the same reference read as text
 *   identifier  SUM  CASE  and          (function names and keywords, case-insensitive)
 *   operator    + - * / = != <> < <= > >= ( ) ,
 * Refused: semicolons, comments (-- and /* *\/), double quotes and backticks, a `$` that does
 * not start a parameter reference, and any other character, each with its 0-based position.
 */
export type TokenType = 'num' | 'str' | 'field' | 'fieldId' | 'param' | 'ident' | 'op' | 'eof';

export interface Token {
  type: TokenType;
  /** Number text, string value, field title or id, parameter key, upper-cased identifier, operator. */
  value: string;
  pos: number;
  /** A parameter reference written as a string, `'${key}'`: read as text. */
  quoted?: boolean;
}

/** `${key}`: a global parameter's key (PARAM_KEY_PATTERN of the contracts) in `${` `}`. */
const PARAM_REF = /^\$\{([A-Za-z][A-Za-z0-9_]*)\}/;
const PARAM_HINT = '$' + '{参数key}';
/** A string literal that is exactly one parameter reference. */
const QUOTED_PARAM_REF = /^\$\{([A-Za-z][A-Za-z0-9_]*)\}$/;

const OPERATORS = ['<>', '!=', '<=', '>=', '+', '-', '*', '/', '=', '<', '>', '(', ')', ','];
const FULL_WIDTH = '（），‘’“”；【】＋－＊／＝＜＞';

export function tokenize(text: string): Token[] {
  if (text.length > MAX_FORMULA_LENGTH) throw formulaError(MAX_FORMULA_LENGTH, `公式长度不能超过${MAX_FORMULA_LENGTH}个字符`);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === ';') throw formulaError(i, '公式中不能包含分号');
    if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*')) throw formulaError(i, '公式中不能包含注释');
    if (c === '#') throw formulaError(i, '公式中不能包含注释');
    if (c === '"' || c === '`') throw formulaError(i, '字符串请使用单引号');
    if (c === '|' && text[i + 1] === '|') throw formulaError(i, '请使用CONCAT函数拼接字符串');
    if (c === '%') throw formulaError(i, '请使用MOD函数取余');
    if (FULL_WIDTH.includes(c)) throw formulaError(i, `请使用英文标点，不能使用“${c}”`);
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i))!;
      i += m[0].length;
      if (i < text.length && /[A-Za-z_.\u0080-\uffff]/.test(text[i]!)) throw formulaError(i, '数字格式不正确');
      tokens.push({ type: 'num', value: m[0], pos: start });
      continue;
    }
    if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw formulaError(start, '字符串缺少结束的单引号');
        const ch = text[i]!;
        if (ch === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += ch;
        i++;
      }
      const ref = QUOTED_PARAM_REF.exec(value);
      tokens.push(ref ? { type: 'param', value: ref[1]!, pos: start, quoted: true } : { type: 'str', value, pos: start });
      continue;
    }
    if (c === '$') {
      const m = PARAM_REF.exec(text.slice(i));
      if (!m) throw formulaError(start, text[i + 1] === '{' ? `全局参数引用不正确，请写成${PARAM_HINT}` : `无法识别的字符“$”，全局参数请写成${PARAM_HINT}`);
      tokens.push({ type: 'param', value: m[1]!, pos: start });
      i += m[0].length;
      continue;
    }
    if (c === '[') {
      const end = text.indexOf(']', i + 1);
      if (end < 0) throw formulaError(start, '字段引用缺少“]”');
      const title = text.slice(i + 1, end);
      if (title.trim() === '' || title.includes('[') || /[\r\n]/.test(title)) throw formulaError(start, '字段引用不正确');
      tokens.push({ type: 'field', value: title.trim(), pos: start });
      i = end + 1;
      continue;
    }
    if (c === '{') {
      const m = /^\{([A-Za-z0-9_-]{1,64})\}/.exec(text.slice(i));
      if (!m) throw formulaError(start, '字段编号引用不正确');
      tokens.push({ type: 'fieldId', value: m[1]!, pos: start });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ type: 'ident', value: m[0].toUpperCase(), pos: start });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      tokens.push({ type: 'op', value: op === '!=' ? '<>' : op, pos: start });
      i += op.length;
      continue;
    }
    throw formulaError(i, `无法识别的字符“${c}”`);
  }
  tokens.push({ type: 'eof', value: '', pos: text.length });
  return tokens;
}
