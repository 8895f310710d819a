import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithApp } from '../../test/render.tsx';
import { CategoryGrantLayout, firstCategory, GrantChecklist } from './grant-scaffold.tsx';

interface Item {
  id: number;
  name: string;
}

const items: Item[] = [
  { id: 1, name: '华东日报' },
  { id: 2, name: '华南日报' },
  { id: 3, name: '财务月报' },
];

/** A server that keeps the group's grants; `hold` makes the next read of them wait until released. */
function server(initial: number[]) {
  let grants = [...initial];
  let held: (() => void) | null = null;
  let holdNext = false;
  return {
    readGrants: () =>
      new Promise<number[]>((resolve) => {
        const answer = () => resolve([...grants]);
        if (holdNext) {
          holdNext = false;
          held = answer;
        } else answer();
      }),
    save: vi.fn(async (ids: number[]) => {
      grants = ids;
      return { msg: '' };
    }),
    hold: () => {
      holdNext = true;
    },
    release: () => held?.(),
  };
}

function renderChecklist(srv: ReturnType<typeof server>, list: Item[] = items) {
  return renderWithApp(
    <GrantChecklist<Item>
      title="授权"
      count={(n, m) => `已选 ${n} / 共 ${m}`}
      texts={{ search: '名称', selectAll: '全选', clear: '清空', save: '保存', saved: '保存成功', empty: '没有可授权的内容' }}
      testIds={{ count: 'count', list: 'list', selectAll: 'all', save: 'save' }}
      items={{ queryKey: ['test', 'items'], queryFn: async () => list }}
      granted={{ queryKey: ['test', 'grants'], queryFn: srv.readGrants }}
      matches={(item, keyword) => item.name.toLowerCase().includes(keyword)}
      save={srv.save}
      invalidate={['test', 'grants']}
      listClassName="test-list"
      renderItem={(item, checked, onToggle) => (
        <label data-testid="item">
          <input type="checkbox" aria-label={item.name} checked={checked} onChange={(e) => onToggle(e.target.checked)} />
          {item.name}
        </label>
      )}
    />,
  );
}

const box = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const count = () => screen.getByTestId('count').textContent;

describe('grant checklist', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('ticks the saved grants; 全选 after a filter ticks only what it shows; 保存 sends the ticked ids', async () => {
    const srv = server([3]);
    renderChecklist(srv);
    await waitFor(() => expect(box('财务月报').checked).toBe(true));
    expect(count()).toBe('已选 1 / 共 3');

    fireEvent.change(screen.getByPlaceholderText('名称'), { target: { value: ' 华东 ' } });
    expect(screen.getAllByTestId('item').map((n) => n.textContent)).toEqual(['华东日报']);
    fireEvent.click(screen.getByTestId('all'));
    expect(count()).toBe('已选 2 / 共 3');

    fireEvent.click(screen.getByTestId('save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(srv.save).toHaveBeenCalledWith([1, 3]);
  });

  it('清空 unticks everything; a grant no longer listed is neither counted nor saved', async () => {
    const srv = server([2, 99]);
    renderChecklist(srv);
    await waitFor(() => expect(box('华南日报').checked).toBe(true));
    expect(count()).toBe('已选 1 / 共 3');
    fireEvent.click(screen.getByText('清空').closest('button')!);
    expect(count()).toBe('已选 0 / 共 3');
    expect(screen.getByText('清空').closest('button')!.disabled).toBe(true);
    fireEvent.click(box('华东日报'));
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(srv.save).toHaveBeenCalledWith([1]));
  });

  it('keeps the saved ticks while the grants are read again, never the old ones', async () => {
    const srv = server([1]);
    renderChecklist(srv);
    await waitFor(() => expect(box('华东日报').checked).toBe(true));
    fireEvent.click(box('华东日报'));
    fireEvent.click(box('华南日报'));
    srv.hold();
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(srv.save).toHaveBeenCalledWith([2]));
    await screen.findByText('保存成功');
    expect(box('华东日报').checked).toBe(false);
    expect(box('华南日报').checked).toBe(true);
    srv.release();
    await waitFor(() => expect(screen.getByTestId('save').querySelector('.ant-btn-loading-icon')).toBeNull());
    expect(box('华东日报').checked).toBe(false);
    expect(box('华南日报').checked).toBe(true);
    // Back on the server's grants: ticking again starts from them.
    fireEvent.click(box('财务月报'));
    expect(count()).toBe('已选 2 / 共 3');
  });

  it('says so when there is nothing to grant', async () => {
    renderChecklist(server([]), []);
    expect(await screen.findByText('没有可授权的内容')).toBeTruthy();
    expect(screen.getByTestId('all').hasAttribute('disabled')).toBe(true);
  });
});

describe('category grant layout', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  const categories = [
    { id: 4, parentId: 9, name: '子分类' },
    { id: 9, parentId: 0, name: '经营分析' },
    { id: 5, parentId: 0, name: '财务' },
  ];

  function renderLayout(list: typeof categories) {
    return renderWithApp(
      <CategoryGrantLayout<(typeof categories)[number]>
        testId="layout"
        sideClassName="test-side"
        title="分类"
        categories={{ queryKey: ['test', 'categories', list.length], queryFn: async () => list }}
        nameOf={(c) => c.name}
        texts={{ noCategories: '暂无分类', pickCategory: '请选择分类' }}
        emptyClassName="test-empty"
        renderPicker={({ categories: shown, value, onChange }) => (
          <ul>
            {shown.map((c) => (
              <li key={c.id} data-testid="pick" aria-selected={c.id === value} onClick={() => onChange(c.id)}>
                {c.name}
              </li>
            ))}
          </ul>
        )}
        renderChecklist={(id, name) => <div data-testid="checklist">{`${id}:${name}`}</div>}
      />,
    );
  }

  it('opens on the first top-level category and follows the pick', async () => {
    expect(firstCategory(categories)).toBe(9);
    expect(firstCategory([])).toBeNull();
    renderLayout(categories);
    expect((await screen.findByTestId('checklist')).textContent).toBe('9:经营分析');
    fireEvent.click(screen.getAllByTestId('pick').find((n) => n.textContent === '财务')!);
    expect(screen.getByTestId('checklist').textContent).toBe('5:财务');
  });

  it('says there are no categories, and asks for one before any checklist', async () => {
    renderLayout([]);
    expect(await screen.findByText('暂无分类')).toBeTruthy();
    expect(screen.getByText('请选择分类')).toBeTruthy();
    expect(screen.queryByTestId('checklist')).toBeNull();
  });
});
