/**
 * Reading a model's answer. The prompt asks for a JSON object; models also answer with the
 * object inside a ```json fence, with a ```sql fence and prose around it, or with the bare
 * statement. Whatever is found is checked afterwards: this only extracts.
 */

export interface ParsedAnswer {
  /** The SQL or formula; '' when none was found. */
  code: string;
  explanation: string;
}

const FENCE = /```([a-zA-Z]*)\s*\n?([\s\S]*?)```/g;

function fromJson(text: string, key: 'sql' | 'formula'): ParsedAnswer | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const parsed = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
    const code = parsed[key];
    if (typeof code !== 'string') return null;
    const explanation = typeof parsed.explanation === 'string' ? parsed.explanation : '';
    return { code: code.trim(), explanation: explanation.trim() };
  } catch {
    return null;
  }
}

export function parseAnswer(content: string, key: 'sql' | 'formula'): ParsedAnswer {
  const text = content.trim();
  const fences = [...text.matchAll(FENCE)];
  for (const fence of fences) {
    const json = fromJson(fence[2] ?? '', key);
    if (json) return json;
  }
  const json = fromJson(text, key);
  if (json) return json;
  const coded = fences.find((f) => (f[1] ?? '').toLowerCase() !== 'json');
  if (coded) {
    const explanation = text.replace(coded[0], '').trim();
    return { code: (coded[2] ?? '').trim(), explanation };
  }
  if (key === 'sql' && /^(select|with)\b/i.test(text)) return { code: text, explanation: '' };
  if (key === 'formula' && !/[\n。]/.test(text)) return { code: text, explanation: '' };
  return { code: '', explanation: text };
}
