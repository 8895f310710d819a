import type { DataSourceType } from '@shutu/contracts';

/**
 * What the model must know about each engine to write SQL that runs there. ClickHouse is the
 * Debian 18.16 server this product supports: many things newer ClickHouse (and every other
 * engine) has are missing, and models write them by habit.
 */
const COMMON = [
  '只写一条 SELECT（或 WITH … SELECT）语句，不要写分号后的第二条语句，不要写 INSERT/UPDATE/DELETE/DDL。',
  '只使用下面列出的表和列；列名与表名按原样书写，需要时加引号。',
  '明细查询加 LIMIT 100；汇总查询给每个计算列起中文或英文别名。',
];

const RULES: Record<DataSourceType, { label: string; rules: string[] }> = {
  duckdb: {
    label: 'DuckDB',
    rules: [
      "标识符用双引号；字符串用单引号。日期函数：date_trunc('month', t)、strftime(t, '%Y-%m')、current_date、t - INTERVAL 7 DAY。",
      '去重计数用 count(DISTINCT x)；支持窗口函数和 CTE。',
    ],
  },
  postgres: {
    label: 'PostgreSQL',
    rules: [
      "标识符用双引号（未加引号的名称会转为小写）；字符串用单引号。日期函数：date_trunc('month', t)、to_char(t, 'YYYY-MM')、current_date - interval '7 days'。",
      'GROUP BY 中要列出所有非聚合列；整数相除会截断，求比例时写 x::numeric / y。',
    ],
  },
  mysql: {
    label: 'MySQL / MariaDB',
    rules: [
      "标识符用反引号；字符串用单引号。日期函数：DATE_FORMAT(t, '%Y-%m')、CURDATE()、DATE_SUB(CURDATE(), INTERVAL 7 DAY)。",
      '没有 FULL OUTER JOIN；不要使用 WITH RECURSIVE；表名区分大小写。',
    ],
  },
  clickhouse: {
    label: 'ClickHouse 18.16',
    rules: [
      '这是 ClickHouse 18.16（很旧的版本）：没有窗口函数（不能写 OVER(...)），不能写 WITH 名称 AS (子查询) 形式的 CTE，改用 FROM 子查询。',
      'JOIN 只支持等值条件，推荐 ANY LEFT JOIN … USING (列)；两边同名列要在子查询里改名；不支持 FULL/RIGHT JOIN 的多条件和非等值条件。',
      "没有 ILIKE，用 lower(x) LIKE '%…%'；去重计数用 uniqExact(x)；日期函数：toStartOfMonth(t)、toYYYYMM(t)、formatDateTime(t, '%Y-%m')、today()、today() - 7。",
      'Nullable 列参与运算时用 ifNull(x, 0)；字符串用单引号，标识符用反引号或双引号。',
    ],
  },
};

export function dialectLabel(type: DataSourceType): string {
  return RULES[type].label;
}

export function dialectRules(type: DataSourceType): string[] {
  return [...COMMON, ...RULES[type].rules];
}
