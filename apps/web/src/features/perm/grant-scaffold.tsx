import { Fragment, useState, type ComponentType, type ReactNode } from 'react';
import { Button, Card, Empty, Input, Space, Spin, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GrantKind } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';

/** What every grant tab receives: the group it grants to. */
export interface GrantTabProps {
  groupId: number;
  groupName: string;
}

/** The grant tabs by kind; the app shell composes them (`app/grant-tabs.tsx`) from the resource features. */
export type GrantTabs = Partial<Record<GrantKind, ComponentType<GrantTabProps>>>;

/** A query a grant tab reads: its key and how to fetch it (always fresh: grants change elsewhere). */
export interface GrantQuery<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
}

/** The words of one checklist, from its feature's catalogue. */
export interface GrantChecklistTexts {
  search: string;
  selectAll: string;
  clear: string;
  save: string;
  /** The success notice when the server sends no message. */
  saved: string;
  /** Nothing to grant (or nothing matches the filter). */
  empty: string;
  /** Shown instead of `empty` while the list loads; without it `empty` stays. */
  loading?: string;
}

export interface GrantChecklistProps<T extends { id: number }> {
  title: ReactNode;
  /** 已选 n / 共 m, in the feature's words. */
  count: (ticked: number, total: number) => string;
  texts: GrantChecklistTexts;
  /** Test ids of the card, the count, the list, 全选 and 保存 (the ones a tab has always had). */
  testIds: { card?: string; count: string; list?: string; selectAll?: string; save?: string };
  /** What can be granted, and the ids the group holds. */
  items: GrantQuery<T[]>;
  granted: GrantQuery<number[]>;
  /** Whether an item passes the filter; `keyword` is trimmed, lower-case and never empty. */
  matches: (item: T, keyword: string) => boolean;
  /** Replaces the group's grants (within the tab's scope) with `ids`. */
  save: (ids: number[]) => Promise<{ msg: string }>;
  /** The grant queries to refetch after a save. */
  invalidate: QueryKey;
  /** Above the toolbar (an explanation). */
  hint?: ReactNode;
  emptyClassName?: string;
  listClassName: string;
  renderItem: (item: T, checked: boolean, onToggle: (on: boolean) => void) => ReactNode;
}

/**
 * A grant checklist: the items with the group's grants ticked; filter, 全选 (the filtered ones),
 * 清空, 保存 (the group's grants become exactly the ticked items).
 */
export function GrantChecklist<T extends { id: number }>(props: GrantChecklistProps<T>) {
  const { texts, testIds } = props;
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const items = useQuery({ queryKey: props.items.queryKey, queryFn: props.items.queryFn, staleTime: 0 });
  const granted = useQuery({ queryKey: props.granted.queryKey, queryFn: props.granted.queryFn, staleTime: 0 });
  const [checked, setChecked] = useState<Set<number> | null>(null);
  // Untouched, the ticks are the saved grants; the first click copies them.
  const ticks = checked ?? new Set(granted.data ?? []);
  const all = items.data ?? [];
  const keyword = filter.trim().toLowerCase();
  const visible = all.filter((item) => !keyword || props.matches(item, keyword));
  // Only items still listed count and are saved.
  const ticked = all.filter((item) => ticks.has(item.id)).map((item) => item.id);

  const save = useMutation({
    mutationFn: () => props.save(ticked),
    onSuccess: async (res) => {
      notifySuccess(res.msg || texts.saved);
      // Back to the saved grants once they are read again, so the ticks never flash the old ones.
      await queryClient.invalidateQueries({ queryKey: props.invalidate });
      setChecked(null);
    },
  });

  const toggle = (id: number, on: boolean) => {
    const next = new Set(ticks);
    if (on) next.add(id);
    else next.delete(id);
    setChecked(next);
  };

  return (
    <Card
      size="small"
      title={props.title}
      data-testid={testIds.card}
      extra={
        <Typography.Text type="secondary" data-testid={testIds.count}>
          {props.count(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      {props.hint}
      <div className="grant-toolbar">
        <Input.Search
          className="grant-table-search"
          placeholder={texts.search}
          aria-label={texts.search}
          allowClear
          onChange={(e) => setFilter(e.target.value)}
        />
        <Space>
          <Button onClick={() => setChecked(new Set([...ticks, ...visible.map((v) => v.id)]))} disabled={visible.length === 0} data-testid={testIds.selectAll}>
            {texts.selectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={ticked.length === 0}>
            {texts.clear}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            disabled={!granted.isSuccess || !items.isSuccess}
            onClick={() => save.mutate()}
            data-testid={testIds.save}
          >
            {texts.save}
          </Button>
        </Space>
      </div>
      <Spin spinning={items.isFetching || granted.isFetching}>
        {visible.length === 0 ? (
          <Empty
            className={props.emptyClassName}
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={items.isFetching && texts.loading ? texts.loading : texts.empty}
          />
        ) : (
          <div className={props.listClassName} data-testid={testIds.list}>
            {visible.map((item) => (
              <Fragment key={item.id}>{props.renderItem(item, ticks.has(item.id), (on) => toggle(item.id, on))}</Fragment>
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}

/** The category a tab opens on: the first top-level one (grants are saved per category). */
export function firstCategory(categories: readonly { id: number; parentId: number }[]): number | null {
  return categories.find((c) => c.parentId === 0)?.id ?? null;
}

/** What the category picker of a grant tab receives. */
export interface GrantCategoryPicker<C> {
  categories: C[];
  loading: boolean;
  /** The selected category (-1 while there is none). */
  value: number;
  onChange: (id: number) => void;
}

export interface CategoryGrantLayoutProps<C extends { id: number; parentId: number }> {
  testId?: string;
  /** The side card's class of the feature's stylesheet (its width). */
  sideClassName: string;
  title: string;
  categories: GrantQuery<C[]>;
  nameOf: (c: C) => string;
  texts: { noCategories: string; pickCategory: string };
  emptyClassName: string;
  renderPicker: (picker: GrantCategoryPicker<C>) => ReactNode;
  /** The checklist of the selected category. */
  renderChecklist: (categoryId: number, categoryName: string) => ReactNode;
  /** Rendered after the two columns (a drawer). */
  children?: ReactNode;
}

/** A grant tab saved per category: the categories on the left (the first top-level one picked), the category's checklist on the right. */
export function CategoryGrantLayout<C extends { id: number; parentId: number }>(props: CategoryGrantLayoutProps<C>) {
  const categories = useQuery({ queryKey: props.categories.queryKey, queryFn: props.categories.queryFn, staleTime: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const list = categories.data ?? [];
  const selected = list.some((c) => c.id === picked) ? picked : firstCategory(list);
  const selectedCategory = list.find((c) => c.id === selected);
  const name = selectedCategory ? props.nameOf(selectedCategory) : '';

  return (
    <div className="split-layout grant-layout" data-testid={props.testId}>
      <Card size="small" className={`split-side ${props.sideClassName}`} title={props.title}>
        {categories.isSuccess && list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.texts.noCategories} />
        ) : (
          props.renderPicker({ categories: list, loading: categories.isFetching, value: selected ?? -1, onChange: setPicked })
        )}
      </Card>
      <div className="split-main">
        {selected === null ? (
          <Card size="small">
            <Empty className={props.emptyClassName} image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.texts.pickCategory} />
          </Card>
        ) : (
          props.renderChecklist(selected, name)
        )}
      </div>
      {props.children}
    </div>
  );
}
