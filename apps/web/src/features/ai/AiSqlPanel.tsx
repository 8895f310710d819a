import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Skeleton, Space, Typography } from 'antd';
import { CheckOutlined, RobotOutlined } from '@ant-design/icons';
import { AI_QUESTION_MAX_LENGTH, type AiSqlResult } from '@shutu/contracts';
import { errorText } from '../../shared/notify.ts';
import { acceptAi, generateSql } from './api.ts';
import { SqlResultTable } from '../../shared/SqlResultTable.tsx';
import { am, fill } from './messages.ts';
import { useAiStatus } from './useAiStatus.ts';
import './ai.css';

interface Props {
  datasourceId: number;
  /** The user keeps the SQL: it replaces the editor's text. */
  onUse: (sql: string) => void;
}

/** The SQL-view drawer's AI 生成 SQL button and its dialog. */
export function AiSqlButton({ datasourceId, onUse }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<RobotOutlined />} onClick={() => setOpen(true)} data-testid="ai-sql-open">
        {am.sqlButton}
      </Button>
      <Modal title={am.sqlTitle} open={open} width={920} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        {open && (
          <AiSqlPanel
            datasourceId={datasourceId}
            onUse={(sql) => {
              onUse(sql);
              setOpen(false);
            }}
          />
        )}
      </Modal>
    </>
  );
}

/** Question → SQL the product checked and ran, its explanation and preview; 使用此SQL keeps it. */
export function AiSqlPanel({ datasourceId, onUse }: Props) {
  const status = useAiStatus(true);
  const [question, setQuestion] = useState('');
  const run = useMutation({ mutationFn: () => generateSql({ datasourceId, question: question.trim() }) });
  if (status.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (status.data && !status.data.enabled) return <Alert type="warning" showIcon title={status.data.message} data-testid="ai-not-configured" />;

  const result = run.data;
  return (
    <div className="ai-panel" data-testid="ai-sql-panel">
      <label className="ai-label" htmlFor="ai-sql-question">
        {am.questionLabel}
      </label>
      <Input.TextArea
        id="ai-sql-question"
        rows={3}
        value={question}
        maxLength={AI_QUESTION_MAX_LENGTH}
        placeholder={am.questionPlaceholder}
        onChange={(e) => setQuestion(e.target.value)}
        data-testid="ai-sql-question"
      />
      <Space className="ai-actions">
        <Button
          type="primary"
          icon={<RobotOutlined />}
          loading={run.isPending}
          disabled={!question.trim()}
          onClick={() => run.mutate()}
          data-testid="ai-sql-generate"
        >
          {result ? am.regenerate : am.generate}
        </Button>
        {run.isPending && <Typography.Text type="secondary">{am.generating}</Typography.Text>}
      </Space>
      {run.isError && <Alert type="error" showIcon title={errorText(run.error)} data-testid="ai-sql-error" />}
      {result && !run.isPending && <SqlResult result={result} onUse={onUse} />}
    </div>
  );
}

function SqlResult({ result, onUse }: { result: AiSqlResult; onUse: (sql: string) => void }) {
  return (
    <div className="ai-result" data-testid="ai-sql-result">
      {result.repairs.length > 0 && (
        <Alert
          type="info"
          showIcon
          data-testid="ai-sql-repaired"
          title={fill(am.repaired, { count: result.repairs.length })}
          description={
            <ul className="ai-repairs">
              {result.repairs.map((r, i) => (
                <li key={i}>{fill(am.repairedDetail, { n: i + 1, error: r.error })}</li>
              ))}
            </ul>
          }
        />
      )}
      <div className="ai-label">{am.sqlLabel}</div>
      <pre className="ai-code" data-testid="ai-sql-text">
        {result.sql}
      </pre>
      {result.explanation && (
        <p className="ai-explanation" data-testid="ai-sql-explanation">
          <strong>{am.explanationLabel}：</strong>
          {result.explanation}
        </p>
      )}
      <Typography.Text type="secondary" className="ai-summary">
        {fill(am.tablesUsed, { tables: result.tables.join('、') })}
      </Typography.Text>
      <div className="ai-label">{am.previewLabel}</div>
      <SqlResultTable result={result.preview} height={220} testId="ai-sql-preview" />
      <Alert type="warning" className="ai-notice" title={am.notice} />
      <Button
        type="primary"
        icon={<CheckOutlined />}
        className="ai-use"
        onClick={() => {
          void acceptAi(result.logId);
          onUse(result.sql);
        }}
        data-testid="ai-sql-use"
      >
        {am.useSql}
      </Button>
    </div>
  );
}
