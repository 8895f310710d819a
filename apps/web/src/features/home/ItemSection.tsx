import type { ReactNode } from 'react';
import { Button, Card, Empty, Tooltip } from 'antd';
import { FundProjectionScreenOutlined, PlaySquareOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { HomeItem } from '@shutu/contracts';
import { notifySuccess } from '../../shared/notify.ts';
import { homeKeys, itemPath, setBoardFavourite } from './api.ts';
import { hm } from './messages.ts';

/** yyyy-MM-dd HH:mm of an ISO time, in local time. */
export function shortTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The star of a board card: adds it to or takes it from 收藏的大屏, then reloads the sections. */
function FavouriteStar({ item }: { item: HomeItem }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => setBoardFavourite(item.id, !item.favourite),
    onSuccess: async (res) => {
      notifySuccess(res.msg);
      await queryClient.invalidateQueries({ queryKey: homeKeys.home });
    },
  });
  const label = item.favourite ? hm.unstar : hm.star;
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        className={`home-star${item.favourite ? ' is-on' : ''}`}
        aria-label={`${label} ${item.title}`}
        aria-pressed={item.favourite}
        loading={toggle.isPending}
        icon={item.favourite ? <StarFilled /> : <StarOutlined />}
        onClick={() => toggle.mutate()}
      />
    </Tooltip>
  );
}

function ItemCard({ item }: { item: HomeItem }) {
  const meta = [hm.kindOf(item), item.boardCount !== null ? hm.boardCount(item.boardCount) : item.ownerName, shortTime(item.time)].filter(Boolean);
  return (
    <div className="home-item" data-testid="home-item">
      <Link to={itemPath(item)} className="home-item-link">
        <div className="home-item-thumb">
          {item.backgroundUrl ? (
            <img src={item.backgroundUrl} alt="" loading="lazy" />
          ) : item.kind === 'ppt' ? (
            <PlaySquareOutlined className="home-item-icon" />
          ) : (
            <FundProjectionScreenOutlined className="home-item-icon" />
          )}
        </div>
        <div className="home-item-body">
          <div className="home-item-title" title={item.title}>
            {item.title}
          </div>
          <div className="home-item-meta">{meta.join(' · ')}</div>
        </div>
      </Link>
      {item.kind === 'board' && <FavouriteStar item={item} />}
    </div>
  );
}

/** A section of the home page: its cards, or a friendly empty state that says how to fill it. */
export function ItemSection({ title, items, empty, testId, extra }: { title: string; items: HomeItem[]; empty: string; testId: string; extra?: ReactNode }) {
  return (
    <Card title={title} extra={extra} size="small" className="home-section" data-testid={testId}>
      {items.length === 0 ? (
        <Empty className="home-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
      ) : (
        <div className="home-grid">
          {items.map((item) => (
            <ItemCard key={`${item.kind}-${item.id}`} item={item} />
          ))}
        </div>
      )}
    </Card>
  );
}
