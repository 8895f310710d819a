import type { FormInstance } from 'antd';
import { ApiError } from './api.ts';

/**
 * Puts a 400's `data.fields` messages under the matching form items (`roleIds.0` → `roleIds`).
 * Returns true when at least one field was marked.
 */
export function applyFieldErrors(form: FormInstance, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.fields.length === 0) return false;
  const known = new Set(form.getFieldsError().map((f) => String(f.name[0])));
  const marks = new Map<string, string[]>();
  for (const f of error.fields) {
    const name = f.field.split('.')[0] ?? '';
    if (!known.has(name)) continue;
    marks.set(name, [...(marks.get(name) ?? []), f.message]);
  }
  form.setFields([...marks].map(([name, errors]) => ({ name, errors })));
  return marks.size > 0;
}
