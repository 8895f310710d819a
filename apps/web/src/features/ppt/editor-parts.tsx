import { useState } from 'react';
import { Button, Card, Empty, Input, Segmented, Spin, Tag, Tooltip, Typography } from 'antd';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CheckOutlined,
  CloseOutlined,
  DesktopOutlined,
  HolderOutlined,
  LayoutOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, type BoardKind, type BoardListItem, type PptVisual } from '@shutu/contracts';
import { fetchBoards } from '../board/api.ts';
import { pt } from './messages.ts';

/** Moves the item at `from` to `to` (both indexes of `list`). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** A board as a slide of the editor. */
export const toVisual = (b: BoardListItem): PptVisual => ({ id: b.id, kind: b.kind, type: b.type, title: b.title, backgroundUrl: b.backgroundUrl });

function Thumb({ visual }: { visual: Pick<PptVisual, 'title' | 'type' | 'backgroundUrl'> }) {
  const Placeholder = visual.type === 'quick' ? LayoutOutlined : DesktopOutlined;
  return (
    <div className="ppt-thumb">
      {visual.backgroundUrl ? <img src={visual.backgroundUrl} alt={visual.title} draggable={false} loading="lazy" /> : <Placeholder />}
    </div>
  );
}

/** The chosen dashboards in play order: drag a row, or 上移 / 下移; 移除. */
export function SelectedVisuals({ visuals, onChange }: { visuals: PptVisual[]; onChange: (next: PptVisual[]) => void }) {
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  return (
    <Card
      size="small"
      className="ppt-editor-selected"
      title={pt.selected(visuals.length)}
      extra={<Typography.Text type="secondary">{pt.selectedHint}</Typography.Text>}
    >
      {visuals.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={pt.noneSelected} />
      ) : (
        <ol className="ppt-slide-list" data-testid="ppt-selected">
          {visuals.map((v, index) => (
            <li
              key={v.id}
              className={`ppt-slide${dragIndex === index ? ' is-dragging' : ''}`}
              data-testid="ppt-selected-item"
              data-title={v.title}
              draggable
              onDragStart={(e) => {
                e.dataTransfer?.setData('text/plain', String(v.id));
                setDragIndex(index);
              }}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragIndex !== null) onChange(moveItem(visuals, dragIndex, index));
                setDragIndex(null);
              }}
              onDragEnd={() => setDragIndex(null)}
            >
              <HolderOutlined className="ppt-slide-handle" />
              <span className="ppt-slide-no">{index + 1}</span>
              <Thumb visual={v} />
              <div className="ppt-slide-text">
                <Typography.Text ellipsis={{ tooltip: v.title }}>{v.title}</Typography.Text>
                <Tag>{v.kind === 'visual' ? pt.pickVisual : pt.pickReport}</Tag>
              </div>
              <span className="ppt-slide-actions">
                <Tooltip title={pt.moveUp}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowUpOutlined />}
                    aria-label={`${pt.moveUp} ${v.title}`}
                    disabled={index === 0}
                    onClick={() => onChange(moveItem(visuals, index, index - 1))}
                  />
                </Tooltip>
                <Tooltip title={pt.moveDown}>
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowDownOutlined />}
                    aria-label={`${pt.moveDown} ${v.title}`}
                    disabled={index === visuals.length - 1}
                    onClick={() => onChange(moveItem(visuals, index, index + 1))}
                  />
                </Tooltip>
                <Tooltip title={pt.removeVisual}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<CloseOutlined />}
                    aria-label={`${pt.removeVisual} ${v.title}`}
                    onClick={() => onChange(visuals.filter((x) => x.id !== v.id))}
                  />
                </Tooltip>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** The boards the user may see, of either kind, searchable by title; 添加 appends to the slideshow. */
export function BoardPicker({ selected, onAdd }: { selected: readonly PptVisual[]; onAdd: (v: PptVisual) => void }) {
  const [kind, setKind] = useState<BoardKind>('visual');
  const [title, setTitle] = useState('');
  const boards = useQuery({
    queryKey: ['ppt', 'editor-boards', kind, title],
    queryFn: () => fetchBoards({ kind, current: 1, size: MAX_PAGE_SIZE, title }),
    staleTime: 0,
  });
  const chosen = new Set(selected.map((v) => v.id));
  const records = boards.data?.records ?? [];
  return (
    <Card size="small" className="ppt-editor-picker" title={pt.pickTitle}>
      <Segmented<BoardKind>
        block
        value={kind}
        onChange={setKind}
        options={[
          { value: 'visual', label: pt.pickVisual },
          { value: 'report', label: pt.pickReport },
        ]}
      />
      <Input.Search className="ppt-picker-search" placeholder={pt.pickSearch} aria-label={pt.pickSearch} allowClear onSearch={(v) => setTitle(v.trim())} />
      <Spin spinning={boards.isFetching}>
        {records.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={pt.noBoards} />
        ) : (
          <ul className="ppt-pick-list" data-testid="ppt-pick-list">
            {records.map((b) => {
              const added = chosen.has(b.id);
              return (
                <li key={b.id} className="ppt-pick" data-testid="ppt-pick" data-title={b.title}>
                  <Thumb visual={b} />
                  <Typography.Text className="ppt-pick-title" ellipsis={{ tooltip: b.title }}>
                    {b.title}
                  </Typography.Text>
                  <Button
                    size="small"
                    type={added ? 'text' : 'default'}
                    icon={added ? <CheckOutlined /> : <PlusOutlined />}
                    disabled={added}
                    onClick={() => onAdd(toVisual(b))}
                    aria-label={`${pt.add} ${b.title}`}
                  >
                    {added ? pt.added : pt.add}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </Spin>
    </Card>
  );
}
