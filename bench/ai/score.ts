/**
 * Execution accuracy: two result sets are the same answer when they hold the same rows. Column
 * names and column order do not count (a model may name or order columns its own way), row
 * order counts only where the question asks for a ranking; numbers are compared to 4 decimal
 * places (a sum as DECIMAL and as DOUBLE is the same answer) and NULL only equals NULL.
 */
export type Cell = string | number | boolean | null;
export type ResultRow = Record<string, Cell>;

function cellKey(value: Cell): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return `n:${Number(value.toFixed(4))}`;
  if (typeof value === 'boolean') return `b:${value}`;
  const text = value.trim();
  // Big integers and decimals come as text from some engines.
  if (/^-?\d+(\.\d+)?$/.test(text)) return `n:${Number(Number(text).toFixed(4))}`;
  return `s:${text}`;
}

/** A row as a bag of its values: independent of column names and order. */
const rowKey = (row: ResultRow) => Object.values(row).map(cellKey).sort().join('\u0001');

export function sameResult(expected: readonly ResultRow[], actual: readonly ResultRow[], ordered = false): boolean {
  if (expected.length !== actual.length) return false;
  const a = expected.map(rowKey);
  const b = actual.map(rowKey);
  if (!ordered) {
    a.sort();
    b.sort();
  }
  return a.every((key, i) => key === b[i]);
}

export type Verdict = 'correct' | 'wrong' | 'refused' | 'error';

export interface QuestionScore {
  id: string;
  verdict: Verdict;
  repairs: number;
  detail: string;
}

export interface EvalReport {
  total: number;
  correct: number;
  /** correct / total. */
  accuracy: number;
  byVerdict: Record<Verdict, number>;
  questions: QuestionScore[];
}

export function summarise(questions: QuestionScore[]): EvalReport {
  const byVerdict: Record<Verdict, number> = { correct: 0, wrong: 0, refused: 0, error: 0 };
  for (const q of questions) byVerdict[q.verdict] += 1;
  const total = questions.length;
  return { total, correct: byVerdict.correct, accuracy: total === 0 ? 0 : byVerdict.correct / total, byVerdict, questions };
}
