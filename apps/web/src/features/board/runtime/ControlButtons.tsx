import { Button } from 'antd';
import { ClearOutlined, WindowsOutlined } from '@ant-design/icons';
import type { BoardControls } from './BoardView.tsx';
import { previewMessages as pm } from './messages.ts';

/** Buttons of the dialog charts (each opens its chart in a large dialog). */
export function DialogChartButtons({ controls }: { controls: Pick<BoardControls, 'dialogCharts' | 'openDialog'> }) {
  return (
    <>
      {controls.dialogCharts.map((c) => (
        <Button key={c.key} icon={<WindowsOutlined />} data-testid="board-dialog-button" onClick={() => controls.openDialog(c.key)}>
          {c.title || c.key}
        </Button>
      ))}
    </>
  );
}

/** 清除联动, only on a board with linked charts. */
export function ClearLinkageButton({ controls }: { controls: Pick<BoardControls, 'hasLinkage' | 'linkApplied' | 'clearLinkage'> }) {
  if (!controls.hasLinkage) return null;
  return (
    <Button icon={<ClearOutlined />} data-testid="board-clear-linkage" onClick={controls.clearLinkage}>
      {pm.clearLinkage}
    </Button>
  );
}
