import type { ReactNode } from 'react';

/** A page's title bar (title, one-line description, actions) above its content. */
export function PageContainer({ title, description, extra, children }: { title: string; description?: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1 className="page-title">{title}</h1>
          {description && <div className="page-desc">{description}</div>}
        </div>
        {extra && <div className="page-extra">{extra}</div>}
      </div>
      {children}
    </div>
  );
}
