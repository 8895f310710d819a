import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Tabs } from 'antd';
import { ArrowLeftOutlined, FunctionOutlined, MenuFoldOutlined, MenuUnfoldOutlined, ReloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { Dataset, FieldId } from '@shutu/contracts';
import { notifyError, notifySuccess, notifyWarning } from '../../../shared/notify.ts';
import { ComputedFieldDialog } from './ComputedFieldDialog.tsx';
import { deleteDatasetField, editorKeys, fetchCategories, fetchUsableSources, saveDataset } from './api.ts';
import { BatchConfigTab } from './BatchConfigTab.tsx';
import { FieldCheckButton } from './FieldCheckDialog.tsx';
import { FilterButtons } from './FilterButtons.tsx';
import type { FilterTree } from '../filter/types.ts';
import { FieldList } from './FieldList.tsx';
import { JoinCanvas } from './JoinCanvas.tsx';
import { JoinDrawer } from './JoinDrawer.tsx';
import { DistinctValuesContext } from '../filter/pick-list.ts';
import { useEditorDistinctValues } from './distinct-values.ts';
import { FieldSelectDrawer, type FieldSelection } from './FieldSelectDrawer.tsx';
import { LEFT_PANEL_WIDTH, LeftPanel, categoryPath, type DragTable, type EditorFormValues } from './LeftPanel.tsx';
import type { EditorField, EditorModel } from './model-state.ts';
import { isSavedId, moveField, renumber, titleTaken, toggleDimension } from './model-state.ts';
import { buildSavePayload, joinTypeMismatch } from './payload.ts';
import { PreviewTab } from './PreviewTab.tsx';
import { SaveDialog } from './SaveDialog.tsx';
import { checkNodeDelete, removeNode } from './tree-ops.ts';
import { useJoinFlow } from './useJoinFlow.ts';
import { em, fmt } from './messages.ts';

export const SAVE_LOCK_MS = 3000;

interface Props {
  id: number | null;
  /** Where 返回 goes: the dataset list (on the category the address named). */
  backPath: string;
  datasourceId: number;
  dsName: string;
  saved: Dataset | null;
  preDrop?: string | null;
  initial: { model: EditorModel; cubeName: string; workspaceId: number | null; remark: string };
}

export function DatasetEditor({ id, backPath, datasourceId, dsName, saved, preDrop, initial }: Props) {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditorFormValues>();
  const [model, setModelState] = useState<EditorModel>(initial.model);
  const setModel = useCallback((update: (m: EditorModel) => EditorModel) => setModelState(update), []);
  const [leftOpen, setLeftOpen] = useState(true);
  const [dragging, setDragging] = useState<DragTable | null>(null);
  const [onlyAvailable, setOnlyAvailable] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [permOpen, setPermOpen] = useState(false);
  /** The global filter as edited; saved with the dataset (cubeData.filterJson). */
  const [globalFilter, setGlobalFilter] = useState<FilterTree | null>(saved?.filterJson ?? null);
  /** The computed-field dialog: null closed, 'new' adding, or the field being edited. */
  const [computed, setComputed] = useState<EditorField | 'new' | null>(null);
  /** A new computed field opened from a canvas node belongs to that node's table. */
  const [computedAlias, setComputedAlias] = useState<string | null>(null);
  const distinctValues = useEditorDistinctValues(model, datasourceId, id);
  /** The table node whose fields the 选择字段 drawer chooses. */
  const [fieldSelection, setFieldSelection] = useState<FieldSelection | null>(null);
  const addComputedOn = useCallback((alias: string | null) => {
    setComputedAlias(alias);
    setComputed('new');
  }, []);
  const dsType = useQuery({ queryKey: editorKeys.usable, queryFn: fetchUsableSources }).data?.find((s) => s.id === datasourceId)?.type ?? null;
  const [saving, setSaving] = useState(false);
  const lockedUntil = useRef(0);
  const categories = useQuery({ queryKey: editorKeys.categories, queryFn: fetchCategories });
  const joins = useJoinFlow(datasourceId, model, setModel);

  // The form's initial category path needs the category list.
  const categoryList = categories.data;
  useEffect(() => {
    if (categoryList && form.getFieldValue('category') === undefined) form.setFieldValue('category', categoryPath(categoryList, initial.workspaceId));
  }, [categoryList, form, initial.workspaceId]);

  // `tableName` in the address pre-drops that table.
  const preDropped = useRef(false);
  const { dropFirst } = joins;
  useEffect(() => {
    if (!preDrop || preDropped.current) return;
    preDropped.current = true;
    void dropFirst({ tableName: preDrop, tableComment: '', schema: null, type: 'TABLE' });
  }, [preDrop, dropFirst]);

  const deleteNode = useCallback(
    (alias: string) => {
      const check = checkNodeDelete(model, alias);
      if (!check.ok) {
        notifyWarning(em.nodeHasChildren);
        return;
      }
      const content =
        check.computed.length > 0 ? fmt(em.nodeDeleteComputed, { names: check.computed.map((f) => f.columnTitle).join('、') }) : em.nodeDeleteConfirm;
      modal.confirm({ title: content, okText: em.confirm, cancelText: em.cancel, onOk: () => setModel((m) => removeNode(m, alias)) });
    },
    [model, modal, setModel],
  );

  const setFields = (update: (fields: EditorField[]) => EditorField[]) => setModel((m) => ({ ...m, fields: update(m.fields) }));
  const rename = (fid: FieldId, title: string): boolean => {
    const text = title.trim();
    if (!text) return false;
    if (titleTaken(model.fields, text, fid)) {
      notifyWarning(em.fieldTitleDuplicate);
      return false;
    }
    setFields((fs) => fs.map((f) => (f.id === fid ? { ...f, columnTitle: text } : f)));
    return true;
  };
  const saveComputed = (field: EditorField) => {
    setFields((fs) => renumber(fs.some((f) => f.id === field.id) ? fs.map((f) => (f.id === field.id ? field : f)) : [...fs, field]));
    setComputed(null);
  };
  const deleteField = (field: EditorField) => {
    const drop = () => setFields((fs) => renumber(fs.filter((f) => f.id !== field.id)));
    if (id !== null && isSavedId(field.id)) {
      modal.confirm({
        title: em.confirmDeleteField,
        okText: em.confirm,
        cancelText: em.cancel,
        onOk: async () => {
          try {
            const res = await deleteDatasetField(Number(field.id));
            notifySuccess(res.msg);
            drop();
          } catch (error) {
            notifyError(error);
          }
        },
      });
    } else drop();
  };

  const doSave = async (perm?: { publicStatus: 0 | 1; dataPermIdList: number[] }) => {
    const values = form.getFieldsValue();
    const path = values.category ?? [];
    const body = buildSavePayload(
      model,
      { cubeName: values.cubeName ?? '', workspaceId: path.length ? path[path.length - 1]! : null, remark: values.remark ?? '' },
      { id, datasourceId, saved, perm, globalFilter },
    );
    setSaving(true);
    try {
      const res = await saveDataset(body);
      notifySuccess(res.msg || em.saveSuccess);
      setPermOpen(false);
      if (id === null) void navigate(`/newbi/dataset/edit?id=${res.data}`, { replace: true });
      else {
        // Edit: reload the page data; the page remounts the editor with it.
        void queryClient.invalidateQueries({ queryKey: editorKeys.detail(id) });
        void queryClient.invalidateQueries({ queryKey: editorKeys.fields(id) });
      }
    } catch (error) {
      notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  const save = () => {
    const now = Date.now();
    if (now < lockedUntil.current) return;
    const values = form.getFieldsValue();
    if (!values.cubeName?.trim()) return notifyWarning(em.nameRequired);
    if (!values.category?.length) return notifyWarning(em.categoryRequired);
    if (model.tables.length === 0) return notifyWarning(em.tableMissing);
    const mismatch = joinTypeMismatch(model);
    if (mismatch) return notifyWarning(mismatch);
    // The lock guards a real save against double clicks, not a refused one.
    lockedUntil.current = now + SAVE_LOCK_MS;
    if (id === null) setPermOpen(true);
    else void doSave();
  };

  return (
    <DistinctValuesContext.Provider value={distinctValues}>
      <div className="ds-editor" data-testid="dataset-editor">
        <aside className="ds-editor-left" style={{ width: leftOpen ? LEFT_PANEL_WIDTH : 0 }}>
          <LeftPanel
            datasourceId={datasourceId}
            dsName={dsName}
            form={form}
            initialValues={{ cubeName: initial.cubeName, remark: initial.remark, category: undefined }}
            saving={saving}
            onSave={save}
            onDragTable={setDragging}
          />
        </aside>
        <main className="ds-editor-main">
          <div className="ds-toolbar">
            <Button size="small" icon={<ArrowLeftOutlined />} onClick={() => void navigate(backPath)} data-testid="ds-back">
              {em.back}
            </Button>
            <Button
              size="small"
              type="text"
              icon={leftOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
              aria-label={leftOpen ? em.hidePanel : em.showPanel}
              onClick={() => setLeftOpen((o) => !o)}
              data-testid="ds-left-toggle"
            />
            <Checkbox checked={onlyAvailable} onChange={(e) => setOnlyAvailable(e.target.checked)} data-testid="ds-only-available">
              {em.onlyAvailable}
            </Checkbox>
            <Button
              size="small"
              icon={<FunctionOutlined />}
              disabled={model.tables.length === 0}
              onClick={() => addComputedOn(null)}
              data-testid="ds-new-computed"
            >
              {em.newComputed}
            </Button>
            <FilterButtons id={id} fields={model.fields} globalFilter={globalFilter} onGlobalFilter={setGlobalFilter} />
            <FieldCheckButton datasourceId={datasourceId} tables={model.tables} fields={model.fields} onChange={setFields} />
            <span className="ds-toolbar-spacer" />
            <Button size="small" icon={<ReloadOutlined />} onClick={() => setRefreshKey((k) => k + 1)} data-testid="ds-refresh">
              {em.refresh}
            </Button>
            {id !== null && (
              <Button size="small" onClick={() => window.open(`/newbi/visual/bigdataEdit?ds=${id}`, '_blank')} data-testid="ds-template">
                {em.createTemplate}
              </Button>
            )}
          </div>
          <JoinCanvas
            tables={model.tables}
            joins={model.joins}
            dragging={dragging !== null}
            onDropFirst={(t) => void joins.dropFirst(t)}
            onDropOn={(alias, t) => void joins.dropOn(alias, t)}
            onEditJoin={joins.editJoin}
            onDelete={deleteNode}
            onAddComputed={addComputedOn}
            onSelectFields={(alias) => {
              const table = model.tables.find((t) => t.tableAliasName === alias);
              setFieldSelection({ alias, label: table?.tableComment || table?.tableName || alias });
            }}
          />
          <div className="ds-body">
            <FieldList
              fields={model.fields}
              onlyAvailable={onlyAvailable}
              onToggleKind={(fid) => setFields((fs) => toggleDimension(fs, fid))}
              onToggleHidden={(fid) => setFields((fs) => fs.map((f) => (f.id === fid ? { ...f, hiddenStatus: f.hiddenStatus ? 0 : 1 } : f)))}
              onRename={rename}
              onMove={(fid, to) => setFields((fs) => moveField(fs, fid, to))}
              onDelete={deleteField}
              onEditComputed={setComputed}
            />
            <Tabs
              className="ds-tabs"
              items={[
                {
                  key: 'preview',
                  label: em.preview,
                  children: <PreviewTab model={model} datasourceId={datasourceId} cubeDataId={id} globalFilter={globalFilter} refreshKey={refreshKey} />,
                },
                { key: 'batch', label: em.batch, children: <BatchConfigTab fields={model.fields} onChange={setFields} /> },
              ]}
            />
          </div>
        </main>
        <JoinDrawer
          open={joins.drawer !== null}
          sourceName={joins.drawer?.sourceName ?? ''}
          targetName={joins.drawer?.targetName ?? ''}
          sourceFields={joins.drawer?.sourceFields ?? []}
          targetFields={joins.drawer?.targetFields ?? []}
          initialType={joins.drawer?.initialType}
          initialKeys={joins.drawer?.initialKeys}
          onOk={(type, keys) => joins.drawer?.onOk(type, keys)}
          onClose={joins.closeDrawer}
        />
        <ComputedFieldDialog
          open={computed !== null}
          field={computed === 'new' ? null : computed}
          fields={model.fields}
          tables={model.tables}
          datasourceId={datasourceId}
          dsType={dsType}
          fixedAlias={computedAlias}
          onOk={saveComputed}
          onCancel={() => setComputed(null)}
        />
        <FieldSelectDrawer
          selection={fieldSelection}
          fields={model.fields}
          onClose={() => setFieldSelection(null)}
          onConfirm={(alias, shown) => {
            setFields((fs) => fs.map((f) => (f.columnAttr === 'NORMAL' && f.tableAliasName === alias ? { ...f, hiddenStatus: shown.has(f.id) ? 0 : 1 } : f)));
            setFieldSelection(null);
          }}
        />
        <SaveDialog open={permOpen} saving={saving} onOk={(perm) => void doSave(perm)} onCancel={() => setPermOpen(false)} />
      </div>
    </DistinctValuesContext.Provider>
  );
}
