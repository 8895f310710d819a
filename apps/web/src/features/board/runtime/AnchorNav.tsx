import { useState } from 'react';
import { Button, Popover } from 'antd';
import { AimOutlined, CompassOutlined, VerticalAlignTopOutlined } from '@ant-design/icons';
import type { BoardContentParsed } from '@shutu/contracts';
import type { BoardControls } from './BoardView.tsx';
import { previewMessages as pm } from './messages.ts';

export interface AnchorNavProps {
  controls: Pick<BoardControls, 'anchors' | 'scrollToChart' | 'scrollToTop'>;
  /** The board's anchor styles (text size and colour, background, icon colour). */
  content: Pick<BoardContentParsed, 'anchorTextSize' | 'anchorTextColor' | 'anchorBgColor' | 'anchorIconColor'>;
}

/** 导航: a popover listing the anchored charts (click scrolls to one) and 返回顶部↑. */
export function AnchorNav({ controls, content }: AnchorNavProps) {
  const [open, setOpen] = useState(false);
  const iconColor = content.anchorIconColor || undefined;
  const itemStyle = { fontSize: content.anchorTextSize ?? 14, color: content.anchorTextColor || undefined };
  const go = (action: () => void) => {
    setOpen(false);
    action();
  };
  const list = (
    <div className="board-anchor-list" data-testid="board-anchor-list" style={{ background: content.anchorBgColor || undefined }}>
      {controls.anchors.map((a) => (
        <button
          key={a.key}
          type="button"
          className="board-anchor-item"
          data-testid="board-anchor"
          style={itemStyle}
          onClick={() => go(() => controls.scrollToChart(a.key))}
        >
          <AimOutlined style={{ color: iconColor }} />
          {a.label}
        </button>
      ))}
      <button type="button" className="board-anchor-item" data-testid="board-anchor-top" style={itemStyle} onClick={() => go(controls.scrollToTop)}>
        <VerticalAlignTopOutlined style={{ color: iconColor }} />
        {pm.backToTop}
      </button>
    </div>
  );
  return (
    <Popover title={pm.navigation} content={list} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button icon={<CompassOutlined style={{ color: iconColor }} />} data-testid="board-nav">
        {pm.navigation}
      </Button>
    </Popover>
  );
}
