import type { ReactNode } from 'react';
import { Button, Typography } from 'antd';
import { cm } from './messages.ts';

/** A titled block of the panel with an optional 清空 on the right. */
export function Section({
  title,
  onClear,
  extra,
  children,
  testId,
}: {
  title: ReactNode;
  onClear?: () => void;
  extra?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="ccp-section" data-testid={testId}>
      <div className="ccp-section-head">
        <Typography.Text strong>{title}</Typography.Text>
        <span className="ccp-section-tools">
          {extra}
          {onClear && (
            <Button type="link" size="small" onClick={onClear} data-testid={testId ? `${testId}-clear` : undefined}>
              {cm.clear}
            </Button>
          )}
        </span>
      </div>
      {children}
    </section>
  );
}

/** A label on the left and its control on the right. */
export function Row({ label, children, error }: { label: ReactNode; children: ReactNode; error?: string | null }) {
  return (
    <div className="ccp-row">
      <span className="ccp-row-label">{label}</span>
      <span className="ccp-row-control">
        {children}
        {error && (
          <Typography.Text type="danger" className="ccp-error">
            {error}
          </Typography.Text>
        )}
      </span>
    </div>
  );
}
