/**
 * 30 questions over the demo warehouse (docs/warehouse.md) with the SQL whose result is the
 * right answer (DuckDB, the built-in warehouse). Scored by execution: the generated SQL's rows
 * are compared with these statements' rows run on the same source in the same run, so the data
 * (seed, scale, end date) never needs to be hard-coded. Every answer has at most 100 rows (the
 * preview's limit).
 */
export interface EvalQuestion {
  id: string;
  question: string;
  expected: string;
  /** The answer's row order matters (a ranking, a top N). */
  ordered?: boolean;
}

export const QUESTIONS: readonly EvalQuestion[] = [
  { id: 'q01', question: '订单总数是多少？', expected: 'SELECT count(*) FROM orders' },
  { id: 'q02', question: '订购成功的订单有多少笔？', expected: "SELECT count(*) FROM orders WHERE status = '订购成功'" },
  { id: 'q03', question: '订购成功的总金额是多少元？', expected: "SELECT sum(amount) FROM orders WHERE status = '订购成功'" },
  { id: 'q04', question: '每个省份的订单数', expected: 'SELECT province, count(*) FROM orders GROUP BY province' },
  {
    id: 'q05',
    question: '订单数最多的 5 个省份及其订单数，从多到少',
    expected: 'SELECT province, count(*) AS n FROM orders GROUP BY province ORDER BY n DESC, province LIMIT 5',
    ordered: true,
  },
  { id: 'q06', question: '各订购状态的订单数', expected: 'SELECT status, count(*) FROM orders GROUP BY status' },
  { id: 'q07', question: '每个订购渠道的订单数', expected: 'SELECT channel_name, count(*) FROM orders GROUP BY channel_name' },
  { id: 'q08', question: '每个一级产品类型的订购金额合计', expected: 'SELECT type_l1_name, sum(amount) FROM orders GROUP BY type_l1_name' },
  { id: 'q09', question: '有多少个不同的用户下过订单？', expected: 'SELECT count(DISTINCT phone) FROM orders' },
  { id: 'q10', question: '每个月的订单数（按 yyyy-MM）', expected: "SELECT strftime(order_time, '%Y-%m') AS m, count(*) FROM orders GROUP BY m" },
  { id: 'q11', question: '退订记录一共有多少条？', expected: 'SELECT count(*) FROM cancellations' },
  { id: 'q12', question: '各退订原因的退订次数', expected: 'SELECT reason, count(*) FROM cancellations GROUP BY reason' },
  { id: 'q13', question: '用户表中男女各有多少人', expected: 'SELECT gender, count(*) FROM users GROUP BY gender' },
  { id: 'q14', question: '用户的平均年龄是多少？', expected: 'SELECT avg(age) FROM users' },
  { id: 'q15', question: '4G 和 5G 用户各有多少', expected: 'SELECT net_type, count(*) FROM users GROUP BY net_type' },
  { id: 'q16', question: '每个大区有几个省份', expected: 'SELECT region, count(*) FROM provinces GROUP BY region' },
  { id: 'q17', question: '广东省有哪些地市？列出地市名称', expected: "SELECT area_name FROM areas WHERE province_name = '广东'" },
  {
    id: 'q18',
    question: '标准资费最高的 3 个产品的简称和资费',
    expected: 'SELECT shortname, price FROM products ORDER BY price DESC, shortname LIMIT 3',
    ordered: true,
  },
  { id: 'q19', question: '每种计费方式有多少个产品', expected: 'SELECT billing_type, count(*) FROM products GROUP BY billing_type' },
  { id: 'q20', question: '各渠道类型有多少个渠道', expected: 'SELECT channel_type, count(*) FROM channels GROUP BY channel_type' },
  { id: 'q21', question: '订购金额最高的一笔订单的订单编号和金额', expected: 'SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 1' },
  {
    id: 'q22',
    question: '每个省份订购成功的平均订购金额，保留两位小数',
    expected: "SELECT province, round(avg(amount), 2) FROM orders WHERE status = '订购成功' GROUP BY province",
  },
  {
    id: 'q23',
    question: '每个省份的退订率：退订数除以订购成功数，保留 4 位小数',
    expected:
      "SELECT o.province, round(coalesce(c.n, 0) / o.n, 4) FROM (SELECT province, count(*) AS n FROM orders WHERE status = '订购成功' GROUP BY province) o LEFT JOIN (SELECT province, count(*) AS n FROM cancellations GROUP BY province) c ON c.province = o.province",
  },
  {
    id: 'q24',
    question: '下过订单的用户按性别统计订单数',
    expected: 'SELECT u.gender, count(*) FROM orders o JOIN users u ON u.phone = o.phone GROUP BY u.gender',
  },
  { id: 'q25', question: '每个页面标题的点击次数', expected: 'SELECT page_title, count(*) FROM click_events GROUP BY page_title' },
  { id: 'q26', question: 'PC 和 H5 各有多少次点击', expected: 'SELECT platform_type, count(*) FROM click_events GROUP BY platform_type' },
  { id: 'q27', question: '每个标签组有多少个标签', expected: 'SELECT tag_group, count(*) FROM tags GROUP BY tag_group' },
  { id: 'q28', question: '正在使用中的标签有多少个', expected: 'SELECT count(*) FROM tags WHERE is_online = 1' },
  {
    id: 'q29',
    question: '最近一个月（数据中最大的月份）每个标签的用户数，前 10 名',
    expected:
      'SELECT tag_name, user_count FROM tag_month_counts WHERE month = (SELECT max(month) FROM tag_month_counts) ORDER BY user_count DESC, tag_name LIMIT 10',
    ordered: true,
  },
  {
    id: 'q30',
    question: '每个月的投诉总次数（用户月度使用表）',
    expected: 'SELECT month, sum(complaints) FROM user_month_usage GROUP BY month',
  },
];
