import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { EditorView, basicSetup } from 'codemirror';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { placeholder as placeholderExt } from '@codemirror/view';
import { MySQL, PostgreSQL, StandardSQL, sql, type SQLDialect } from '@codemirror/lang-sql';

/** The engine of a data source, as the contracts spell it (duckdb, postgres, mysql, clickhouse). */
export type SqlEngine = string | null | undefined;

/** The CodeMirror SQL dialect closest to a data source's engine. */
export function sqlDialectOf(engine: SqlEngine): SQLDialect {
  switch ((engine ?? '').toLowerCase()) {
    case 'mysql':
    case 'mariadb':
      return MySQL;
    case 'postgres':
    case 'postgresql':
    case 'duckdb':
      return PostgreSQL;
    default:
      return StandardSQL;
  }
}

export interface CodeEditorHandle {
  /** Replaces the selection (or inserts at the cursor) with `text`, then focuses the editor. */
  insert: (text: string) => void;
  focus: () => void;
}

export interface CodeEditorProps {
  /** The text; Form.Item fills it (and onChange) in when the editor is a form control. */
  value?: string;
  onChange?: (value: string) => void;
  /** Only SQL for now; the dialect follows `engine`. */
  language?: 'sql';
  engine?: SqlEngine;
  readOnly?: boolean;
  minHeight?: number | string;
  placeholder?: string;
  'data-testid'?: string;
  className?: string;
  ref?: Ref<CodeEditorHandle>;
}

function languageExt(language: CodeEditorProps['language'], engine: SqlEngine): Extension {
  return language === 'sql' ? sql({ dialect: sqlDialectOf(engine), upperCaseKeywords: true }) : [];
}

/**
 * CodeMirror marks completions with emoji and mathematical letters (🔑, 𝑥) that the product's
 * fonts lack, so they drew as empty boxes: plain letters instead, one per kind of completion.
 */
const COMPLETION_ICONS: Record<string, string> = {
  keyword: 'K',
  type: 'T',
  property: 'P',
  variable: 'V',
  constant: 'C',
  function: 'F',
  method: 'F',
  namespace: 'N',
  class: 'C',
  interface: 'I',
  enum: 'E',
  text: 'A',
};
const completionIconTheme = EditorView.theme(
  Object.fromEntries([
    ['.cm-tooltip-autocomplete .cm-completionIcon', { fontSize: '10px', fontFamily: 'monospace', opacity: '0.6', width: '1.2em' }],
    ...Object.entries(COMPLETION_ICONS).map(([kind, letter]) => [`.cm-completionIcon-${kind}:after`, { content: `'${letter}'` }]),
  ]),
);

const cssSize = (v: number | string | undefined) => (typeof v === 'number' ? `${v}px` : v);

/**
 * A controlled CodeMirror 6 editor. The EditorView lives as long as the component; a new
 * `value` replaces the document only when it differs from what the editor holds.
 */
export function CodeEditor({
  value = '',
  onChange,
  language = 'sql',
  engine,
  readOnly = false,
  minHeight = 160,
  placeholder,
  className,
  ref,
  ...rest
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const compartments = useRef({ lang: new Compartment(), readOnly: new Compartment(), placeholder: new Compartment(), theme: new Compartment() });
  // The first render's settings; later changes go through the compartments below.
  const initial = useRef({ value, language, engine, readOnly, minHeight, placeholder });

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const c = compartments.current;
    const init = initial.current;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: init.value ?? '',
        extensions: [
          basicSetup,
          completionIconTheme,
          EditorView.lineWrapping,
          c.lang.of(languageExt(init.language, init.engine)),
          c.readOnly.of(EditorState.readOnly.of(init.readOnly)),
          c.placeholder.of(init.placeholder ? placeholderExt(init.placeholder) : []),
          c.theme.of(themeExt(init.minHeight)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.lang.reconfigure(languageExt(language, engine)) });
  }, [language, engine]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.placeholder.reconfigure(placeholder ? placeholderExt(placeholder) : []) });
  }, [placeholder]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.theme.reconfigure(themeExt(minHeight)) });
  }, [minHeight]);

  useImperativeHandle(ref, () => ({
    insert(text: string) {
      const editor = view.current;
      if (!editor || editor.state.readOnly) return;
      editor.dispatch(editor.state.replaceSelection(text));
      editor.focus();
    },
    focus() {
      view.current?.focus();
    },
  }));

  return <div ref={host} className={['code-editor', className].filter(Boolean).join(' ')} data-testid={rest['data-testid']} />;
}

function themeExt(minHeight: number | string | undefined): Extension {
  return EditorView.theme({
    '&': { border: '1px solid #d9d9d9', borderRadius: '6px', fontSize: '13px' },
    '&.cm-focused': { outline: 'none', borderColor: '#1677ff' },
    '.cm-scroller': { minHeight: cssSize(minHeight) ?? 'auto', fontFamily: 'Menlo, Consolas, monospace' },
    '.cm-content, .cm-gutter': { minHeight: cssSize(minHeight) ?? 'auto' },
  });
}
