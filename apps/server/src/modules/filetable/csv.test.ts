import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, MAX_RECORD_CHARS, parseCsv, type CsvRecord } from './csv.ts';

async function records(chunks: string[], delimiter = ','): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const batch of parseCsv(
    (async function* () {
      yield* chunks;
    })(),
    delimiter,
  ))
    out.push(...batch);
  return out;
}

/** The text cut at every position into two chunks, and into single characters. */
function splits(text: string): string[][] {
  const all: string[][] = [[text], [...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

describe('CSV parser', () => {
  it('reads fields, quotes, escaped quotes and line breaks inside quotes, however the text is chunked', async () => {
    const text = '\uFEFF名称,备注,金额\r\n"上海, 浦东","他说""好""",3\n"两\n行",,\r\n末行,"x",';
    const expected: CsvRecord[] = [
      { row: 1, values: ['名称', '备注', '金额'] },
      { row: 2, values: ['上海, 浦东', '他说"好"', '3'] },
      { row: 3, values: ['两\n行', null, null] },
      { row: 5, values: ['末行', 'x', null] },
    ];
    for (const chunks of splits(text)) expect(await records(chunks), JSON.stringify(chunks)).toEqual(expected);
  });

  it('handles LF, CRLF and CR line ends, blank lines and a missing final line end', async () => {
    expect(await records(['a,b\rc,d\r\n\ne,f'])).toEqual([
      { row: 1, values: ['a', 'b'] },
      { row: 2, values: ['c', 'd'] },
      { row: 3, values: [null] },
      { row: 4, values: ['e', 'f'] },
    ]);
    expect(await records(['a\n'])).toEqual([{ row: 1, values: ['a'] }]);
    expect(await records([''])).toEqual([]);
    expect(await records(['""\n'])).toEqual([{ row: 1, values: [null] }]);
  });

  it('uses the given delimiter and keeps a quote inside an unquoted field', async () => {
    expect(await records(['a;b\n1;2,5\n'], ';')).toEqual([
      { row: 1, values: ['a', 'b'] },
      { row: 2, values: ['1', '2,5'] },
    ]);
    expect(await records(['a\tb\n5" screen\tx\n'], '\t')).toEqual([
      { row: 1, values: ['a', 'b'] },
      { row: 2, values: ['5" screen', 'x'] },
    ]);
  });

  it('reports an unclosed quote, text after a closing quote and an endless record with their line', async () => {
    const failure = (chunks: string[]) =>
      records(chunks).then(
        () => null,
        (e: CsvSyntaxError) => [e.reason, e.line],
      );
    expect(await failure(['a,b\n1,2\n"open,3\n4,5\n'])).toEqual(['unclosedQuote', 3]);
    expect(await failure(['a,b\n"x"y,2\n'])).toEqual(['afterQuote', 2]);
    expect(await failure(['a\n"two\nlines"z\n'])).toEqual(['afterQuote', 3]);
    const endless = ['a\n"', ...Array.from({ length: 5 }, () => 'x'.repeat(MAX_RECORD_CHARS / 4))];
    expect(await failure(endless)).toEqual(['recordTooLong', 2]);
  });
});
