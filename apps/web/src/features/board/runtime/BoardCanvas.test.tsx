import { useContext } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ChartScaleContext } from '../../../shared/charts/chart-scale.ts';
import { ScreenCanvas } from './BoardCanvas.tsx';
import { chartAt, makeBoard } from './test-fixtures.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

it('renders a screen board’s charts once, at the scale of the measured viewport (never at 1 first)', async () => {
  // A 960 px wide viewport shows the 1920 px design at 0.5.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('board-viewport') ? 960 : 0;
  });
  const seen: number[] = [];
  function Probe({ title }: { title: string }) {
    const scale = useContext(ChartScaleContext);
    seen.push(scale);
    return <div>{`${title} ×${scale}`}</div>;
  }
  const charts = [chartAt('bar', 'bar', '各省金额', { x: 0, y: 0 }), chartAt('pie', 'pie', '渠道占比', { x: 960, y: 0 })];
  render(
    <ScreenCanvas
      board={makeBoard(charts)}
      charts={charts}
      renderChart={(c) => <Probe title={c.title} />}
      viewportId="viewport"
      anchorId={(key) => `chart-${key}`}
    />,
  );
  expect(await screen.findByText('各省金额 ×0.5')).toBeTruthy();
  expect(screen.getByText('渠道占比 ×0.5')).toBeTruthy();
  expect(seen).toEqual([0.5, 0.5]);
  expect(screen.getByTestId('board-stage').getAttribute('data-scale')).toBe('0.5');
});
