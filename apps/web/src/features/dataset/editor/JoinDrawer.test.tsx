import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderWithApp } from '../../../test/render.tsx';
import { JoinDrawer, type JoinFieldOption } from './JoinDrawer.tsx';

const source: JoinFieldOption[] = [
  { key: 'phone', title: '手机号', viewDataType: 'STRING', vt: 0 },
  { key: 'amount', title: '金额', viewDataType: 'NUMBER', vt: 0 },
];
const target: JoinFieldOption[] = [
  { key: 'phone', title: '用户手机号', viewDataType: 'STRING', vt: 0 },
  { key: 'age', title: '年龄', viewDataType: 'NUMBER', vt: 0 },
];

async function choose(label: string, option: string) {
  const select = screen.getByLabelText(label).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items[items.length - 1]!);
}

function open(onOk = vi.fn()) {
  renderWithApp(<JoinDrawer open sourceName="订单" targetName="用户" sourceFields={source} targetFields={target} onOk={onOk} onClose={() => undefined} />);
  return onOk;
}

describe('JoinDrawer', () => {
  afterEach(cleanup);

  it('asks for both sides of every key row', async () => {
    const onOk = open();
    fireEvent.click(await screen.findByTestId('join-ok'));
    expect(await screen.findByText('请补充连接字段')).toBeTruthy();
    await choose('源表字段1', '手机号');
    fireEvent.click(screen.getByTestId('join-ok'));
    expect(screen.getByText('请补充连接字段')).toBeTruthy();
    expect(onOk).not.toHaveBeenCalled();
  });

  it('warns on a type mismatch and confirms matching keys with LEFT_JOIN by default', async () => {
    const onOk = open();
    await choose('源表字段1', '金额');
    await choose('关联表字段1', '用户手机号');
    fireEvent.click(screen.getByTestId('join-ok'));
    expect(await screen.findByText('字段【金额】与【用户手机号】的数据类型不一致，无法关联，请检查')).toBeTruthy();
    await choose('源表字段1', '手机号');
    fireEvent.click(screen.getByTestId('join-ok'));
    expect(onOk).toHaveBeenCalledWith('LEFT_JOIN', [{ sourceKey: 'phone', targetKey: 'phone', sourceKeyVtState: 0, targetKeyVtState: 0 }]);
  });

  it('keeps at least one key row', async () => {
    open();
    const remove = () => screen.getAllByRole('button', { name: '删除' });
    expect(remove()).toHaveLength(1);
    expect((remove()[0] as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('join-add-key'));
    expect(remove()).toHaveLength(2);
    fireEvent.click(remove()[1]!);
    expect(remove()).toHaveLength(1);
  });
});
