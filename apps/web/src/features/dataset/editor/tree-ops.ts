import type { EditorField, EditorModel } from './model-state.ts';
import { childrenOf } from './layout.ts';

export type NodeDeleteCheck = { ok: false; reason: 'children' } | { ok: true; computed: EditorField[] };

/** A node with children cannot be deleted; otherwise its computed fields go with it. */
export function checkNodeDelete(model: EditorModel, alias: string): NodeDeleteCheck {
  if (childrenOf(model.joins, alias).length > 0) return { ok: false, reason: 'children' };
  return { ok: true, computed: model.fields.filter((f) => f.columnAttr === 'VIRTUAL' && f.tableAliasName === alias) };
}

/** The model without the table `alias`, its join and its fields. */
export function removeNode(model: EditorModel, alias: string): EditorModel {
  return {
    tables: model.tables.filter((t) => t.tableAliasName !== alias),
    joins: model.joins.filter((j) => j.target !== alias && j.source !== alias),
    fields: model.fields.filter((f) => f.tableAliasName !== alias),
  };
}
