import { useEffect, useState } from 'react';
import { Alert, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchHeatmapShot, heatmapKeys } from './api.ts';
import { hmt } from './messages.ts';

/** The picture as a data: address: kept by the query cache with nothing to revoke. */
function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(hmt.shotFailed));
    reader.readAsDataURL(blob);
  });
}

/** Waits until `value` has stayed the same for `ms`: a window being dragged wider asks for one screenshot, not fifty. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The server's screenshot of a page that refuses framing, taken at the width it is shown at
 * (docs/heatmap.md "Screenshot fallback"); a new width asks for a new one once it settles.
 * Reports the picture's height, the page's, so the heat layer covers it exactly.
 */
export function ShotImage({ title, width, onHeight }: { title: string; width: number; onHeight: (height: number) => void }) {
  const shotWidth = useSettled(width, 400);
  const shot = useQuery({
    queryKey: heatmapKeys.shot(title, shotWidth),
    queryFn: async () => dataUrl(await fetchHeatmapShot(title, shotWidth)),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const src = shot.data;

  if (shot.isError) return <Alert type="error" showIcon message={shot.error.message} data-testid="heatmap-shot-error" />;
  return (
    <Spin spinning={shot.isFetching} tip={hmt.shotLoading}>
      {src ? (
        <img
          className="heatmap-frame"
          src={src}
          alt={title}
          width={width}
          data-testid="heatmap-shot"
          data-shot-width={shotWidth}
          onLoad={(e) => onHeight(Math.round((e.currentTarget.naturalHeight * width) / e.currentTarget.naturalWidth))}
        />
      ) : (
        <div style={{ width, height: 400 }} />
      )}
    </Spin>
  );
}
