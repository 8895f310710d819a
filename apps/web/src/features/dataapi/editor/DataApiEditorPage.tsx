import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Form, Result, Space, Spin } from 'antd';
import { ArrowLeftOutlined, EyeOutlined, SaveOutlined } from '@ant-design/icons';
import type { CodeEditorHandle } from '../../../shared/CodeEditor.tsx';
import { am } from '../messages.ts';
import '../dataapi.css';
import { DictDialog } from './DictDialog.tsx';
import { FieldBrowser } from './FieldBrowser.tsx';
import { ParamSection } from './ParamSection.tsx';
import { PreviewCard } from './PreviewCard.tsx';
import { SettingsCard } from './SettingsCard.tsx';
import { useDataApiEditor } from './useDataApiEditor.ts';

/**
 * The data-API editor (spec 2 §2): /apiedit (database or external URL) and /apiedit1 (the same with
 * chart preview settings), opened with ?id= or ?apiKey=; a new API moves to ?id= after its first save.
 */
export default function DataApiEditorPage({ withChart }: { withChart: boolean }) {
  const navigate = useNavigate();
  const editor = useDataApiEditor();
  const sqlRef = useRef<CodeEditorHandle>(null);
  const apiType = Form.useWatch('apiType', editor.form) ?? editor.initialValues.apiType;
  const previewRef = useRef<{ run: () => void } | null>(null);

  if (editor.loading) return <Spin size="large" fullscreen />;
  if (editor.notFound) return <Result status="404" title={am.apiNotFound} extra={<Button onClick={() => navigate('/newbi/dataapi')}>{am.back}</Button>} />;

  return (
    <Form form={editor.form} layout="vertical" initialValues={editor.initialValues} className="dataapi-editor" component="div">
      <div className="dataapi-editor-head">
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/newbi/dataapi')} aria-label={am.back} />
          <h1>{editor.saved ? editor.saved.apiName : am.newApi}</h1>
        </Space>
        <Space>
          <DictDialog previewData={editor.preview?.data} apiId={editor.saved?.id ?? null} />
          <Button icon={<EyeOutlined />} onClick={() => previewRef.current?.run()} loading={editor.previewing} data-testid="dataapi-preview">
            {am.preview}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} onClick={editor.save} loading={editor.saving} data-testid="dataapi-save">
            {am.save}
          </Button>
        </Space>
      </div>
      <div className="dataapi-editor-body">
        {apiType !== 2 && (
          <Card size="small" title={am.fieldBrowser} className="dataapi-editor-side">
            <FieldBrowser onInsert={(text) => sqlRef.current?.insert(text)} />
          </Card>
        )}
        <div className="dataapi-editor-main">
          <PreviewCard
            params={editor.apiParams}
            preview={editor.preview}
            previewing={editor.previewing}
            onPreview={editor.runPreview}
            fields={editor.fields}
            onFields={editor.setFields}
            withChart={withChart}
            triggerRef={previewRef}
          />
          <Card size="small" title={am.params}>
            <ParamSection value={editor.apiParams} onChange={editor.setApiParams} />
          </Card>
        </div>
        <div className="dataapi-editor-right">
          <SettingsCard sqlRef={sqlRef} headers={editor.headers} onHeaders={editor.setHeaders} />
        </div>
      </div>
    </Form>
  );
}
