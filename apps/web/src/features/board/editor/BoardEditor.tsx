import { useCallback, useEffect, useReducer, useState } from 'react';
import { App, Button, Divider, Input, Tag, Tooltip } from 'antd';
import { ArrowLeftOutlined, CopyOutlined, DeleteOutlined, EyeOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import {
  API,
  BOARD_TITLE_MAX_LENGTH,
  boardMessages,
  MAX_CHARTS_PER_BOARD,
  type BoardKind,
  type BoardSave,
  type BoardType,
  type ChartType,
} from '@shutu/contracts';
import { request } from '../../../shared/api.ts';
import { boardKeys, previewPath } from '../api.ts';
import { ChartConfigPanel } from './config/ChartConfigPanel.tsx';
import { LeftPanel } from './LeftPanel.tsx';
import { et } from './messages.ts';
import { PagePanel } from './PagePanel.tsx';
import { QuickCanvas } from './QuickCanvas.tsx';
import { SaveDialog } from './SaveDialog.tsx';
import { ScreenCanvas } from './ScreenCanvas.tsx';
import { buildSavePayload, defaultCubeOf, editorReducer, isDirty, newChart, newChartKey, nudge, type EditorDoc, type EditorState } from './state.ts';
import { useEditorKeys } from './useEditorKeys.ts';
import type { ChartDraft } from './types.ts';

interface Props {
  kind: BoardKind;
  mode: BoardType;
  /** `?ds=`: the dataset new charts start from. */
  ds: number | null;
  initial: EditorState;
}

const saveBoard = (body: BoardSave) => request<number>(API.board.boards, { method: 'POST', body });

/** The board editor: header, component / layer panel, the canvas of the mode, and the configuration panel. */
export function BoardEditor({ kind, mode, ds, initial }: Props) {
  const [state, dispatch] = useReducer(editorReducer, initial);
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [, setSearch] = useSearchParams();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<{ preview: boolean } | null>(null);
  const { doc, selectedKey, boardId } = state;
  const dirty = isDirty(state);
  const selected = doc.charts.find((c) => c.key === selectedKey) ?? null;
  const defaultCube = defaultCubeOf(doc.charts, ds);

  const mutation = useMutation({ mutationFn: saveBoard });

  // Leaving the page (closing the tab, reloading) with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  /** Saves the document as it is now (with the dialog's name and category when given); the board id, or null when not saved. */
  const save = async (asked?: { title: string; categoryId: number }): Promise<number | null> => {
    let sent: EditorDoc = doc;
    if (asked) {
      sent = { ...doc, title: asked.title, categoryId: asked.categoryId };
      dispatch({ type: 'setTitle', title: asked.title });
      dispatch({ type: 'setCategory', categoryId: asked.categoryId });
    }
    if (!sent.title.trim()) {
      message.warning(boardMessages.titleRequired);
      return null;
    }
    if (!sent.categoryId) {
      setAsking((a) => a ?? { preview: false });
      return null;
    }
    try {
      const result = await mutation.mutateAsync(buildSavePayload({ ...state, doc: sent }, kind));
      const id = result.data;
      dispatch({ type: 'saved', boardId: id, doc: asked ? undefined : sent });
      if (boardId === null) setSearch((q) => ({ ...Object.fromEntries(q), id: String(id) }), { replace: true });
      message.success(result.msg || boardMessages.saveSuccess);
      void queryClient.invalidateQueries({ queryKey: boardKeys.listAll });
      return id;
    } catch {
      return null; // the server's msg is shown by the query client
    }
  };

  const openPreview = async () => {
    if (boardId !== null && !dirty) {
      window.open(previewPath(boardId), '_blank');
      return;
    }
    if (!doc.categoryId) {
      setAsking({ preview: true });
      return;
    }
    const id = await save();
    if (id) window.open(previewPath(id), '_blank');
  };

  const addChart = (type: ChartType, at?: { x: number; y: number }) => {
    if (doc.charts.length >= MAX_CHARTS_PER_BOARD) {
      message.warning(et.tooMany(MAX_CHARTS_PER_BOARD));
      return;
    }
    dispatch({ type: 'addChart', chart: newChart(doc, type, { key: newChartKey(), cubeId: defaultCube, at }) });
  };

  const duplicate = useCallback(
    (key: string) => {
      if (state.doc.charts.length >= MAX_CHARTS_PER_BOARD) return;
      dispatch({ type: 'duplicateChart', key, newKey: newChartKey() });
    },
    [state.doc.charts.length],
  );

  const confirmRemove = useCallback(
    (chart: ChartDraft) => {
      modal.confirm({
        title: et.removeConfirm(chart.title || chart.key),
        okText: et.ok,
        cancelText: et.cancel,
        okButtonProps: { danger: true },
        onOk: () => dispatch({ type: 'removeChart', key: chart.key }),
      });
    },
    [modal],
  );

  const leave = () => {
    const go = () => navigate(`/newbi/${kind}`);
    if (!dirty) return go();
    modal.confirm({ title: et.leaveTitle, content: et.leaveConfirm, okText: et.leave, cancelText: et.stay, onOk: go });
  };

  useEditorKeys({
    enabled: !asking,
    onUndo: () => dispatch({ type: 'undo' }),
    onRedo: () => dispatch({ type: 'redo' }),
    onCopy: () => state.selectedKey,
    onPaste: (key) => {
      if (state.doc.charts.some((c) => c.key === key)) duplicate(key);
    },
    onDelete: () => {
      if (selected) confirmRemove(selected);
    },
    onNudge: (dx, dy) => {
      if (!selected || mode !== 'screen') return false;
      const rect = nudge(selected.site, dx, dy, state.doc.content);
      dispatch({
        type: 'updateSites',
        patches: [{ key: selected.key, site: { x: rect.x, y: rect.y } }],
        coalesce: { key: `nudge:${selected.key}`, at: Date.now() },
      });
      return true;
    },
  });

  const select = useCallback((key: string | null) => dispatch({ type: 'select', key }), []);

  return (
    <div className="be-page" data-testid="board-editor" data-mode={mode}>
      <header className="be-header">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={leave}>
          {et.back}
        </Button>
        <Divider orientation="vertical" />
        <Input
          className="be-title-input"
          data-testid="board-title"
          variant="borderless"
          maxLength={BOARD_TITLE_MAX_LENGTH}
          placeholder={et.titlePlaceholder}
          value={doc.title}
          onChange={(e) => dispatch({ type: 'setTitle', title: e.target.value })}
        />
        <Tag color={mode === 'quick' ? 'green' : 'blue'}>{et.modeLabel(mode)}</Tag>
        {dirty && <Tag data-testid="unsaved-tag">{et.unsaved}</Tag>}
        <span className="be-header-spacer" />
        <Tooltip title={et.undo}>
          <Button type="text" icon={<UndoOutlined />} aria-label={et.undo} disabled={state.past.length === 0} onClick={() => dispatch({ type: 'undo' })} />
        </Tooltip>
        <Tooltip title={et.redo}>
          <Button type="text" icon={<RedoOutlined />} aria-label={et.redo} disabled={state.future.length === 0} onClick={() => dispatch({ type: 'redo' })} />
        </Tooltip>
        <Divider orientation="vertical" />
        <Button icon={<EyeOutlined />} data-testid="preview-board" onClick={() => void openPreview()} loading={mutation.isPending && !!asking?.preview}>
          {et.preview}
        </Button>
        <Button type="primary" icon={<SaveOutlined />} data-testid="save-board" loading={mutation.isPending} onClick={() => void save()}>
          {et.save}
        </Button>
      </header>
      <div className="be-body">
        <LeftPanel
          showLayers={mode === 'screen'}
          charts={doc.charts}
          selectedKey={selectedKey}
          onAdd={(type) => addChart(type)}
          onSelect={select}
          onLayer={(key, op) => dispatch({ type: 'layer', key, op })}
        />
        <main className="be-canvas">
          {mode === 'screen' ? (
            <ScreenCanvas
              doc={doc}
              selectedKey={selectedKey}
              onSelect={select}
              onPlace={(patch) => dispatch({ type: 'updateSites', patches: [patch] })}
              onDropType={addChart}
            />
          ) : (
            <QuickCanvas
              doc={doc}
              selectedKey={selectedKey}
              onSelect={select}
              onPlace={(patches) => dispatch({ type: 'updateSites', patches })}
              onSync={(patches) => dispatch({ type: 'syncLayout', patches })}
              onDropType={addChart}
            />
          )}
        </main>
        <aside className="be-right" data-testid="editor-right">
          <div className="be-panel-title">
            <span>{selected ? et.chartSettings : et.pageSettings}</span>
            {selected && (
              <span className="be-panel-tools">
                <Tooltip title={et.copy}>
                  <Button
                    size="small"
                    type="text"
                    icon={<CopyOutlined />}
                    aria-label={et.copy}
                    data-testid="copy-chart"
                    onClick={() => duplicate(selected.key)}
                  />
                </Tooltip>
                <Tooltip title={et.remove}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={et.remove}
                    data-testid="remove-chart"
                    onClick={() => confirmRemove(selected)}
                  />
                </Tooltip>
              </span>
            )}
          </div>
          <div className="be-right-body">
            {selected ? (
              <ChartConfigPanel
                key={selected.key}
                chart={selected}
                charts={doc.charts}
                boardType={mode}
                defaultCubeId={defaultCube}
                onChange={(chart) => dispatch({ type: 'updateChart', chart, coalesce: { key: `chart:${chart.key}`, at: Date.now() } })}
              />
            ) : (
              <PagePanel
                content={doc.content}
                onChange={(patch, field) => dispatch({ type: 'setContent', patch, coalesce: { key: `content:${field}`, at: Date.now() } })}
              />
            )}
          </div>
        </aside>
      </div>
      <SaveDialog
        open={asking !== null}
        kind={kind}
        title={doc.title}
        saving={mutation.isPending}
        onCancel={() => setAsking(null)}
        onOk={async (values) => {
          const preview = asking?.preview ?? false;
          // Opened now, while the click still counts as the user's: a tab opened after the save would be blocked.
          const tab = preview ? window.open('', '_blank') : null;
          const id = await save(values);
          if (id) {
            setAsking(null);
            if (tab) tab.location.href = previewPath(id);
            else if (preview) window.open(previewPath(id), '_blank');
          } else {
            tab?.close();
          }
        }}
      />
    </div>
  );
}
