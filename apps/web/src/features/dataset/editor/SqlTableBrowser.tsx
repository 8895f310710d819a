import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Empty, Input, Spin } from 'antd';
import { CaretDownOutlined, CaretRightOutlined, TableOutlined } from '@ant-design/icons';
import type { DataSourceTable } from '@shutu/contracts';
import { editorKeys, fetchColumns, fetchSourceTables } from './api.ts';
import { sm } from './source-messages.ts';

interface Props {
  datasourceId: number;
  /** Called with a table or column name to put into the SQL at the cursor. */
  onInsert: (text: string) => void;
}

const columnsKey = (dsId: number, schema: string, table: string) => ['dataset', 'editor', 'columns', dsId, schema, table] as const;

function TableColumns({ datasourceId, table, onInsert }: { datasourceId: number; table: DataSourceTable; onInsert: Props['onInsert'] }) {
  const columns = useQuery({
    queryKey: columnsKey(datasourceId, table.schema, table.name),
    queryFn: () => fetchColumns(datasourceId, table.name, table.schema || null),
  });
  if (columns.isLoading) return <Spin size="small" className="sqlv-browser-spin" />;
  return (
    <ul className="sqlv-browser-columns">
      {(columns.data ?? []).map((c) => (
        <li key={c.name}>
          <button
            type="button"
            className="sqlv-browser-item"
            title={c.comment ? `${c.name}（${c.comment}）${c.dbType}` : `${c.name} ${c.dbType}`}
            data-testid={`sql-browser-column-${table.name}.${c.name}`}
            onClick={() => onInsert(c.name)}
          >
            <span className="sqlv-browser-name">{c.name}</span>
            {c.comment && <span className="sqlv-browser-comment">{c.comment}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The SQL editor's table and field browser: the data source's tables; expanding one lists its
 * columns; clicking a table or column name inserts it at the editor's cursor.
 */
export function SqlTableBrowser({ datasourceId, onInsert }: Props) {
  const [keyword, setKeyword] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const tables = useQuery({ queryKey: editorKeys.tables(datasourceId), queryFn: () => fetchSourceTables(datasourceId), enabled: datasourceId > 0 });

  const shown = useMemo(() => {
    const kw = keyword.trim().toLowerCase();
    return (tables.data ?? []).filter((t) => !kw || t.name.toLowerCase().includes(kw) || t.comment.toLowerCase().includes(kw));
  }, [tables.data, keyword]);

  const toggle = (key: string) =>
    setExpanded((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <div className="sqlv-browser" data-testid="sql-browser">
      <div className="sqlv-browser-title">{sm.browserTitle}</div>
      <Input.Search
        size="small"
        allowClear
        placeholder={sm.browserSearch}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        data-testid="sql-browser-search"
      />
      <div className="sqlv-browser-list">
        {tables.isLoading ? (
          <Spin size="small" className="sqlv-browser-spin" />
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={sm.noTables} />
        ) : (
          <ul className="sqlv-browser-tables">
            {shown.map((t) => {
              const key = `${t.schema}.${t.name}`;
              const open = expanded.has(key);
              return (
                <li key={key}>
                  <div className="sqlv-browser-row">
                    <button
                      type="button"
                      className="sqlv-browser-toggle"
                      aria-expanded={open}
                      aria-label={t.name}
                      data-testid={`sql-browser-expand-${t.name}`}
                      onClick={() => toggle(key)}
                    >
                      {open ? <CaretDownOutlined /> : <CaretRightOutlined />}
                    </button>
                    <button
                      type="button"
                      className="sqlv-browser-item"
                      title={`${sm.clickToInsert}：${t.name}${t.comment ? `（${t.comment}）` : ''}`}
                      data-testid={`sql-browser-table-${t.name}`}
                      onClick={() => onInsert(t.name)}
                    >
                      <TableOutlined />
                      <span className="sqlv-browser-name">{t.name}</span>
                      {t.comment && <span className="sqlv-browser-comment">{t.comment}</span>}
                    </button>
                  </div>
                  {open && <TableColumns datasourceId={datasourceId} table={t} onInsert={onInsert} />}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
