import { useState } from 'react';
import { App, Button, Modal, Table } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import type { DatasetFieldDraft } from '@shutu/contracts';
import { notifyError } from '../../../shared/notify.ts';
import { checkFields } from './api.ts';
import { appendDrafts } from './batch-ops.ts';
import type { EditorField, EditorTable } from './model-state.ts';
import { em, fmt } from './messages.ts';

export const FIELD_CHECK_DIALOG_WIDTH = 720;

interface ButtonProps {
  datasourceId: number;
  tables: EditorTable[];
  fields: EditorField[];
  onChange: (update: (fields: EditorField[]) => EditorField[]) => void;
}

const draftKey = (d: DatasetFieldDraft) => `${d.tableAliasName ?? ''}.${d.columnName ?? ''}`;

/**
 * The toolbar's 字段检查 (spec §4): asks which physical columns of the tables are not yet
 * in the dataset. None: the info message 无可同步字段; otherwise a dialog lists them, all
 * ticked, and 确定 adds the ticked ones as new fields.
 */
export function FieldCheckButton({ datasourceId, tables, fields, onChange }: ButtonProps) {
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const [drafts, setDrafts] = useState<DatasetFieldDraft[] | null>(null);

  const check = async () => {
    setLoading(true);
    try {
      const found = await checkFields({
        datasourceId,
        cubeTableNames: tables.map((t) => ({
          tableName: t.tableName,
          tableAliasName: t.tableAliasName,
          tableComment: t.tableComment ?? null,
          schema: t.schema ?? null,
          type: t.type ?? null,
        })),
        columnList: fields.map((f) => ({
          columnAttr: f.columnAttr,
          columnName: f.columnName,
          columnTitle: f.columnTitle,
          tableAliasName: f.tableAliasName,
          viewDataType: f.viewDataType,
        })),
      });
      if (found.length === 0) void message.info(em.noFieldsToSync);
      else setDrafts(found);
    } catch (error) {
      notifyError(error);
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Button size="small" icon={<SyncOutlined />} loading={loading} disabled={tables.length === 0} onClick={() => void check()} data-testid="ds-field-check">
        {em.fieldCheck}
      </Button>
      <FieldCheckDialog
        drafts={drafts}
        tables={tables}
        onOk={(chosen) => {
          onChange((fs) => appendDrafts(fs, chosen));
          setDrafts(null);
          void message.success(fmt(em.fieldCheckAdded, { count: chosen.length }));
        }}
        onCancel={() => setDrafts(null)}
      />
    </>
  );
}

interface DialogProps {
  /** The missing columns; null closes the dialog. */
  drafts: DatasetFieldDraft[] | null;
  tables: EditorTable[];
  onOk: (chosen: DatasetFieldDraft[]) => void;
  onCancel: () => void;
}

export function FieldCheckDialog({ drafts, tables, onOk, onCancel }: DialogProps) {
  return (
    <Modal title={em.fieldCheckTitle} width={FIELD_CHECK_DIALOG_WIDTH} open={drafts !== null} onCancel={onCancel} footer={null} destroyOnHidden>
      {drafts && <DraftList drafts={drafts} tables={tables} onOk={onOk} onCancel={onCancel} />}
    </Modal>
  );
}

function DraftList({ drafts, tables, onOk, onCancel }: DialogProps & { drafts: DatasetFieldDraft[] }) {
  const { message } = App.useApp();
  const [chosen, setChosen] = useState<string[]>(() => drafts.map(draftKey));
  const tableLabel = (alias: string | null) => {
    const t = tables.find((x) => x.tableAliasName === alias);
    return t ? t.tableComment || t.tableName : (alias ?? '');
  };
  return (
    <div data-testid="field-check-dialog">
      <div className="ds-check-count">{fmt(em.selectedCount, { count: chosen.length })}</div>
      <Table<DatasetFieldDraft>
        size="small"
        rowKey={draftKey}
        dataSource={drafts}
        pagination={false}
        scroll={{ y: 360 }}
        rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setChosen(keys.map(String)) }}
        columns={[
          { title: em.fieldTitle, dataIndex: 'columnTitle', render: (v: string) => <span data-testid={`check-${v}`}>{v}</span> },
          { title: em.columnName, dataIndex: 'columnName' },
          { title: em.tableOf, key: 'table', render: (_, d) => tableLabel(d.tableAliasName) },
          { title: em.dataType, key: 'type', render: (_, d) => em[d.viewDataType] },
          { title: em.fieldKind, key: 'kind', render: (_, d) => (d.dimensionType === 'WEIDU' ? em.dimension : em.indicator) },
        ]}
      />
      <div className="ds-dialog-actions ds-check-actions">
        <Button onClick={onCancel}>{em.cancel}</Button>
        <Button
          type="primary"
          onClick={() => {
            const picked = drafts.filter((d) => chosen.includes(draftKey(d)));
            if (picked.length === 0) return void message.warning(em.fieldCheckNoneChosen);
            onOk(picked);
          }}
          data-testid="field-check-ok"
        >
          {em.confirm}
        </Button>
      </div>
    </div>
  );
}
