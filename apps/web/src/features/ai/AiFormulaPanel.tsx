import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Input, Space, Tag, Typography } from 'antd';
import { CheckOutlined, RobotOutlined } from '@ant-design/icons';
import { AI_QUESTION_MAX_LENGTH, type AiFormulaResult, type CubeField } from '@shutu/contracts';
import { errorText } from '../../shared/notify.ts';
import { acceptAi, generateFormula } from './api.ts';
import { am, fill } from './messages.ts';
import { useAiStatus } from './useAiStatus.ts';
import './ai.css';

interface Props {
  datasourceId: number;
  /** The dataset's other fields: what the formula may reference. */
  fields: CubeField[];
  /** The user keeps the formula: it replaces the dialog's formula. */
  onUse: (formula: string) => void;
}

/**
 * The computed-field dialog's AI 生成公式: a button that opens a row for the description; the
 * answer is offered only after the server's formula checker accepted it.
 */
export function AiFormulaPanel({ datasourceId, fields, onUse }: Props) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="small" icon={<RobotOutlined />} className="ai-formula-open" onClick={() => setOpen(true)} data-testid="ai-formula-open">
        {am.formulaButton}
      </Button>
    );
  }
  return <FormulaBox datasourceId={datasourceId} fields={fields} onUse={onUse} onClose={() => setOpen(false)} />;
}

function FormulaBox({ datasourceId, fields, onUse, onClose }: Props & { onClose: () => void }) {
  const status = useAiStatus(true);
  const [description, setDescription] = useState('');
  const run = useMutation({ mutationFn: () => generateFormula({ datasourceId, description: description.trim(), fields }) });
  const disabled = status.data !== undefined && !status.data.enabled;
  return (
    <div className="ai-formula" data-testid="ai-formula-panel">
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text strong>{am.formulaButton}</Typography.Text>
        <Button size="small" type="text" onClick={onClose}>
          {am.close}
        </Button>
      </Space>
      {disabled ? (
        <Alert type="warning" showIcon title={status.data?.message} data-testid="ai-not-configured" />
      ) : (
        <div className="ai-formula-row">
          <Input
            value={description}
            maxLength={AI_QUESTION_MAX_LENGTH}
            placeholder={am.formulaPlaceholder}
            aria-label={am.formulaLabel}
            onChange={(e) => setDescription(e.target.value)}
            onPressEnter={() => description.trim() && run.mutate()}
            data-testid="ai-formula-description"
          />
          <Button type="primary" loading={run.isPending} disabled={!description.trim()} onClick={() => run.mutate()} data-testid="ai-formula-generate">
            {am.generate}
          </Button>
        </div>
      )}
      {run.isError && <Alert type="error" showIcon title={errorText(run.error)} data-testid="ai-formula-error" />}
      {run.data && !run.isPending && <FormulaResult result={run.data} onUse={onUse} />}
    </div>
  );
}

function FormulaResult({ result, onUse }: { result: AiFormulaResult; onUse: (formula: string) => void }) {
  return (
    <div data-testid="ai-formula-result">
      <Space>
        <Typography.Text type="secondary">{am.formulaResult}</Typography.Text>
        {result.hasAggregation && <Tag color="blue">{am.aggregates}</Tag>}
        {result.repairs.length > 0 && <Tag>{fill(am.repaired, { count: result.repairs.length })}</Tag>}
      </Space>
      <pre className="ai-code" data-testid="ai-formula-text">
        {result.formula}
      </pre>
      {result.explanation && <p className="ai-explanation">{result.explanation}</p>}
      <Button
        size="small"
        type="primary"
        icon={<CheckOutlined />}
        onClick={() => {
          void acceptAi(result.logId);
          onUse(result.formula);
        }}
        data-testid="ai-formula-use"
      >
        {am.useFormula}
      </Button>
    </div>
  );
}
