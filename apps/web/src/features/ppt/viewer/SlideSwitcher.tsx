import { Button, Tooltip } from 'antd';
import type { PptVisual } from '@shutu/contracts';
import { safeUrl } from '../../../shared/charts/index.ts';
import { vm } from './messages.ts';

export interface SwitcherProps {
  visuals: PptVisual[];
  index: number;
  onGo: (index: number) => void;
}

/** Numbered buttons, one per dashboard, the current one highlighted. */
export function NumberButtons({ visuals, index, onGo }: SwitcherProps) {
  return (
    <div className="pptv-numbers" data-testid="ppt-numbers">
      {visuals.map((v, i) => (
        <Tooltip key={v.id} title={v.title}>
          <Button
            size="small"
            shape="circle"
            type={i === index ? 'primary' : 'default'}
            data-testid="ppt-number"
            data-current={i === index}
            onClick={() => onGo(i)}
          >
            {i + 1}
          </Button>
        </Tooltip>
      ))}
    </div>
  );
}

/** The thumbnail grid: each dashboard's picture (its backgroundUrl) with its title. */
export function ThumbnailGrid({ visuals, index, onGo }: SwitcherProps) {
  return (
    <div className="pptv-thumbs" data-testid="ppt-thumbs">
      {visuals.map((v, i) => {
        const image = safeUrl(v.backgroundUrl);
        return (
          <button
            key={v.id}
            type="button"
            className={`pptv-thumb${i === index ? ' pptv-thumb-current' : ''}`}
            data-testid="ppt-thumb"
            title={v.title}
            onClick={() => onGo(i)}
          >
            <span className="pptv-thumb-image" style={image ? { backgroundImage: `url(${JSON.stringify(image)})` } : undefined}>
              {!image && <span className="pptv-thumb-placeholder">{i + 1}</span>}
            </span>
            <span className="pptv-thumb-title">{`${i + 1}. ${v.title}`}</span>
          </button>
        );
      })}
    </div>
  );
}

export const switcherLabels = { numbers: vm.numbers, thumbnails: vm.thumbnails } as const;
