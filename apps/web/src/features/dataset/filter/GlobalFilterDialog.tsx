import { useMemo, useState } from 'react';
import { Alert, Button, Modal, Space } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { FilterTreeEditor } from './FilterTreeEditor.tsx';
import { globalFilterProblem, normalizeGlobalFilter } from './global-filter.ts';
import { GlobalParamManager } from './GlobalParamManager.tsx';
import { fetchAllParams, paramKeys } from './param-api.ts';
import { pm } from './param-messages.ts';
import { EMPTY_TREE, type FilterField, type FilterParam, type FilterTree } from './types.ts';

export const GLOBAL_FILTER_WIDTH = 800;

export interface GlobalFilterDialogProps {
  open: boolean;
  /** The dataset's global filter (cubeData.filterJson); null when it has none. */
  value: FilterTree | null;
  /** The dataset's fields a condition may filter on. */
  fields: FilterField[];
  /** The edited filter, normalised: null when no condition is left. */
  onOk: (tree: FilterTree | null) => void;
  onCancel: () => void;
}

/**
 * 全局过滤 (spec 2 §2, §5 "Permission filter and global filter"): conditions ANDed into every
 * read of the dataset, which may take their values from global parameters. The filter is
 * saved with the dataset; this dialog only edits it and hands it back.
 */
export function GlobalFilterDialog(props: GlobalFilterDialogProps) {
  return (
    <Modal
      open={props.open}
      title={pm.filterTitle}
      width={GLOBAL_FILTER_WIDTH}
      destroyOnHidden
      onCancel={props.onCancel}
      footer={null}
      data-testid="global-filter-dialog"
    >
      {props.open && <GlobalFilterBody {...props} />}
    </Modal>
  );
}

function GlobalFilterBody({ value, fields, onOk, onCancel }: GlobalFilterDialogProps) {
  const [tree, setTree] = useState<FilterTree>(() => value ?? EMPTY_TREE);
  const [error, setError] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);

  const paramList = useQuery({ queryKey: paramKeys.options, queryFn: fetchAllParams, staleTime: 0 });
  const params = useMemo<FilterParam[]>(
    () => (paramList.data ?? []).map((p) => ({ paramKey: p.paramKey, paramName: p.paramName, paramColumnType: p.paramColumnType })),
    [paramList.data],
  );

  const change = (next: FilterTree) => {
    setTree(next);
    setError(null);
  };

  const confirm = () => {
    // Unknown keys are only checked against a list that loaded (the server checks them anyway).
    const problem = globalFilterProblem(tree, fields, paramList.isSuccess ? params : undefined);
    setError(problem);
    if (problem) return;
    onOk(normalizeGlobalFilter(tree));
  };

  return (
    <div data-testid="gf-body">
      <Alert type="info" showIcon title={pm.filterHint} style={{ marginBottom: 12 }} />
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button icon={<SettingOutlined />} onClick={() => setManaging(true)} data-testid="gf-manage-params">
          {pm.manageParams}
        </Button>
      </div>
      {paramList.isError && <Alert type="warning" showIcon title={pm.paramsLoadFailed} style={{ marginBottom: 12 }} />}
      <FilterTreeEditor value={tree} onChange={change} fields={fields} params={params} testIdPrefix="gf" />
      {error && <Alert type="warning" showIcon title={error} style={{ marginTop: 12 }} data-testid="gf-error" />}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Button onClick={() => change(EMPTY_TREE)} data-testid="gf-clear">
          {pm.clear}
        </Button>
        <Space>
          <Button onClick={onCancel}>{pm.cancel}</Button>
          <Button type="primary" onClick={confirm} data-testid="gf-ok">
            {pm.confirm}
          </Button>
        </Space>
      </div>
      <GlobalParamManager open={managing} onClose={() => setManaging(false)} />
    </div>
  );
}
