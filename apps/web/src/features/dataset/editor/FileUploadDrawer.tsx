import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Form, Input, Select, Space, Spin, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import type { FileColumn, FileStructure, FileTable, ViewDataType } from '@shutu/contracts';
import {
  API,
  FILE_TABLE_EXTENSIONS,
  TABLE_COMMENT_MAX_LENGTH,
  TABLE_NAME_MAX_LENGTH,
  VIEW_DATA_TYPES,
  checkFileTableForm,
  defaultFileTableName,
} from '@shutu/contracts';
import { ApiError, upload } from '../../../shared/api.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../../shared/notify.ts';
import { editorKeys } from './api.ts';
import { formatMessage, sm } from './source-messages.ts';

export const FILE_UPLOAD_DRAWER_WIDTH = 500;

interface Props {
  open: boolean;
  datasourceId: number;
  onClose: () => void;
  onUploaded?: (tableName: string) => void;
}

interface FormValues {
  tableName: string;
  tableComment: string;
}

const typeOptions = VIEW_DATA_TYPES.map((t) => ({ value: t, label: sm[t] }));

/** The extension of a file name, lower-cased, when it is one of xlsx / xls / csv. */
export function allowedExtension(fileName: string): boolean {
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  return (FILE_TABLE_EXTENSIONS as readonly string[]).includes(ext);
}

const baseName = (fileName: string) => fileName.replace(/\.[^.]*$/, '');

/** A failed upload: the server's msg, or 服务器错误 when there is none (spec 2 §8). */
function uploadFailed(error: unknown): void {
  notifyError(error instanceof ApiError && error.message ? error : new Error(sm.serverError));
}

/**
 * File-upload drawer (spec 2 §2 "File-upload drawer", §4, §5 "File table"): pick an xlsx / xls /
 * csv, the server reads its structure; edit table name, comment and columns; 确定 creates the table.
 */
export function FileUploadDrawer({ open, datasourceId, onClose, onUploaded }: Props) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const [structure, setStructure] = useState<FileStructure | null>(null);
  const [columns, setColumns] = useState<FileColumn[]>([]);
  const [reading, setReading] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const reset = () => {
    form.resetFields();
    setFile(null);
    setStructure(null);
    setColumns([]);
    setReading(false);
    setSubmitting(false);
  };

  const close = () => {
    reset();
    onClose();
  };

  const readStructure = async (picked: File) => {
    setFile(picked);
    setStructure(null);
    setColumns([]);
    setReading(true);
    const body = new FormData();
    body.append('file', picked, picked.name);
    try {
      const { data } = await upload<FileStructure>(API.fileTable.structure, body);
      setStructure(data);
      setColumns(data.columns.map((c) => ({ ...c })));
      form.setFieldsValue({ tableComment: baseName(picked.name), tableName: defaultFileTableName() });
      form.setFields([
        { name: 'tableName', errors: [] },
        { name: 'tableComment', errors: [] },
      ]);
    } catch (error) {
      setFile(null);
      uploadFailed(error);
    } finally {
      setReading(false);
    }
  };

  const beforeUpload = (picked: File) => {
    if (!allowedExtension(picked.name)) {
      notifyWarning(sm.fileFormatInvalid);
      return Upload.LIST_IGNORE;
    }
    void readStructure(picked);
    return false; // we send it ourselves
  };

  const setColumn = (index: number, patch: Partial<FileColumn>) => setColumns((list) => list.map((c, i) => (i === index ? { ...c, ...patch } : c)));

  const submit = async () => {
    const values = form.getFieldsValue();
    const checked = checkFileTableForm({
      tableName: values.tableName,
      tableComment: values.tableComment,
      dsId: datasourceId,
      tableColumnList: JSON.stringify(columns),
    });
    form.setFields([
      { name: 'tableName', errors: [] },
      { name: 'tableComment', errors: [] },
    ]);
    if (!checked.ok) {
      const first = checked.errors[0]!;
      if (first.field === 'tableName' || first.field === 'tableComment') form.setFields([{ name: first.field, errors: [first.message] }]);
      notifyWarning(first.message);
      return;
    }
    if (!file || !structure) {
      notifyWarning(sm.fileRequired);
      return;
    }
    const { tableName, tableComment, dsId } = checked.value;
    // The server kept the file it read the structure of: it is named, not sent again, unless it is gone (410).
    const confirmForm = (withFile: boolean) => {
      const body = new FormData();
      if (withFile) body.append('file', file, file.name);
      else body.append('fileToken', structure.fileToken);
      body.append('tableName', tableName);
      body.append('tableComment', tableComment);
      body.append('dsId', String(dsId));
      body.append('tableColumnList', JSON.stringify(columns));
      return body;
    };
    setSubmitting(true);
    try {
      await upload<FileTable>(API.fileTable.tables, confirmForm(false)).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 410) return upload<FileTable>(API.fileTable.tables, confirmForm(true));
        throw error;
      });
      notifySuccess(sm.uploaded);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: editorKeys.files(datasourceId) }),
        queryClient.invalidateQueries({ queryKey: editorKeys.tables(datasourceId) }),
      ]);
      onUploaded?.(tableName);
      close();
    } catch (error) {
      uploadFailed(error);
      setSubmitting(false);
    }
  };

  const fileList: UploadFile[] = file ? [{ uid: 'file', name: file.name, status: reading ? 'uploading' : 'done' }] : [];

  return (
    <Drawer
      open={open}
      title={sm.uploadTitle}
      placement="right"
      size={FILE_UPLOAD_DRAWER_WIDTH}
      onClose={close}
      className="ds-upload-drawer"
      footer={
        <Space className="ds-drawer-footer">
          <Button onClick={close} data-testid="file-upload-cancel">
            {sm.cancel}
          </Button>
          <Button type="primary" loading={submitting} disabled={reading} onClick={() => void submit()} data-testid="file-upload-ok">
            {sm.confirm}
          </Button>
        </Space>
      }
    >
      <div data-testid="file-upload-drawer">
        <Upload.Dragger
          accept={FILE_TABLE_EXTENSIONS.map((e) => `.${e}`).join(',')}
          multiple={false}
          maxCount={1}
          fileList={fileList}
          beforeUpload={beforeUpload}
          onRemove={() => reset()}
          data-testid="file-upload-dragger"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{sm.uploadHint}</p>
          <p className="ant-upload-hint">{sm.uploadTypes}</p>
        </Upload.Dragger>
        <Spin spinning={reading} description={sm.uploading}>
          <Form
            form={form}
            layout="vertical"
            className="ds-upload-form"
            initialValues={{ tableName: '', tableComment: '' }}
            onValuesChange={(changed: Partial<FormValues>) =>
              form.setFields((Object.keys(changed) as (keyof FormValues)[]).map((name) => ({ name, errors: [] })))
            }
          >
            <Form.Item name="tableName" label={sm.tableName} required>
              <Input placeholder={sm.tableNamePlaceholder} maxLength={TABLE_NAME_MAX_LENGTH} showCount data-testid="file-table-name" />
            </Form.Item>
            <Form.Item name="tableComment" label={sm.tableComment} required>
              <Input placeholder={sm.tableCommentPlaceholder} maxLength={TABLE_COMMENT_MAX_LENGTH} data-testid="file-table-comment" />
            </Form.Item>
          </Form>
          {structure && <ColumnsEditor columns={columns} structure={structure} onChange={setColumn} />}
        </Spin>
      </div>
    </Drawer>
  );
}

function ColumnsEditor({
  columns,
  structure,
  onChange,
}: {
  columns: FileColumn[];
  structure: FileStructure;
  onChange: (index: number, patch: Partial<FileColumn>) => void;
}) {
  const rows = columns.map((c, index) => ({ ...c, index }));
  return (
    <>
      <Typography.Title level={5} className="ds-upload-section">
        {sm.columns}
        {structure.encoding && <span className="ds-upload-encoding">{formatMessage(sm.encoding, { encoding: structure.encoding })}</span>}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey="index"
        dataSource={rows}
        scroll={{ y: 320 }}
        data-testid="file-columns"
        columns={[
          { title: sm.originalField, dataIndex: 'comment', ellipsis: true },
          {
            title: sm.physicalField,
            dataIndex: 'columnName',
            render: (value: string, row) => (
              <Input
                size="small"
                value={value}
                aria-label={`${sm.physicalField}${row.index + 1}`}
                data-testid={`file-col-name-${row.index}`}
                onChange={(e) => onChange(row.index, { columnName: e.target.value })}
              />
            ),
          },
          {
            title: sm.columnType,
            dataIndex: 'columnType',
            width: 120,
            render: (value: ViewDataType, row) => (
              <Select
                size="small"
                value={value}
                options={typeOptions}
                aria-label={`${sm.columnType}${row.index + 1}`}
                data-testid={`file-col-type-${row.index}`}
                onChange={(v: ViewDataType) => onChange(row.index, { columnType: v })}
                style={{ width: '100%' }}
              />
            ),
          },
        ]}
      />
      {structure.previewRows.length > 0 && (
        <>
          <Typography.Title level={5} className="ds-upload-section">
            {formatMessage(sm.previewRows, { count: structure.previewRows.length })}
          </Typography.Title>
          <Table
            size="small"
            pagination={false}
            rowKey="__row"
            dataSource={structure.previewRows.map((r, i) => ({ ...r, __row: i }))}
            scroll={{ x: 'max-content', y: 240 }}
            data-testid="file-preview"
            columns={structure.columns.map((c) => ({ title: c.comment || c.columnName, dataIndex: c.columnName, key: c.columnName, ellipsis: true }))}
          />
        </>
      )}
    </>
  );
}
