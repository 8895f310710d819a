import { useState, type ReactNode } from 'react';
import { previewMessages as pm } from '../runtime/messages.ts';

/**
 * Pretty-printed, syntax-coloured JSON whose objects and arrays fold (▾ / ▸). Keys, strings,
 * numbers, booleans and null have their own colours; a folded node shows its item count.
 * `depthOpen` levels start open (remount with another value to unfold or fold everything).
 */
export interface JsonTreeProps {
  value: unknown;
  /** Nodes at this depth and deeper start folded. */
  depthOpen?: number;
}

const INDENT = 2;

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  return <span className="json-string">{JSON.stringify(String(value))}</span>;
}

function Node({ name, value, depth, depthOpen, last }: { name?: string; value: unknown; depth: number; depthOpen: number; last: boolean }) {
  const composite = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < depthOpen);
  const pad = { paddingLeft: depth * INDENT + 'ch' };
  const comma = last ? '' : ',';
  const label: ReactNode =
    name !== undefined ? (
      <>
        <span className="json-key">{JSON.stringify(name)}</span>
        <span className="json-punct">: </span>
      </>
    ) : null;
  if (!composite) {
    return (
      <div className="json-line" style={pad}>
        <span className="json-toggle-space" />
        {label}
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? (value as unknown[]).map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const [openBrace, closeBrace] = isArray ? ['[', ']'] : ['{', '}'];
  const toggle = (
    <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="json-toggle">
      {open ? '▾' : '▸'}
    </button>
  );
  if (!open || entries.length === 0) {
    return (
      <div className="json-line" style={pad}>
        {entries.length > 0 ? toggle : <span className="json-toggle-space" />}
        {label}
        <span className="json-punct">{openBrace}</span>
        {entries.length > 0 && (
          <button type="button" className="json-folded" onClick={() => setOpen(true)}>
            {pm.items(entries.length)}
          </button>
        )}
        <span className="json-punct">{closeBrace}</span>
        {comma}
      </div>
    );
  }
  return (
    <>
      <div className="json-line" style={pad}>
        {toggle}
        {label}
        <span className="json-punct">{openBrace}</span>
      </div>
      {entries.map(([k, v], i) => (
        <Node key={k} name={isArray ? undefined : k} value={v} depth={depth + 1} depthOpen={depthOpen} last={i === entries.length - 1} />
      ))}
      <div className="json-line" style={pad}>
        <span className="json-toggle-space" />
        <span className="json-punct">{closeBrace}</span>
        {comma}
      </div>
    </>
  );
}

export function JsonTree({ value, depthOpen = 3 }: JsonTreeProps) {
  return (
    <div className="json-tree" data-testid="json-tree">
      <Node value={value} depth={0} depthOpen={depthOpen} last />
    </div>
  );
}
