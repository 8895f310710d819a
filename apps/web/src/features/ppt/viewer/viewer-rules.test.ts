import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAutoPlay } from './autoplay.ts';
import { keyStep, nextWrapping, pathRules, pdfEstimate, SHARED_PATH_RULES, slideIndex, step, viewerFlags, visibleButtons } from './viewer-rules.ts';

const flags = (query: string) => viewerFlags(new URLSearchParams(query));

describe('path rules and query flags', () => {
  it('reads fullpowerpoint as mobile, full as no top bar, report1 as no buttons', () => {
    expect(pathRules('/newbi/ppt/view/3/0')).toEqual({ mobile: false, hideTopBar: false, hideButtons: false });
    expect(pathRules('/fullpowerpoint/3/7')).toEqual({ mobile: true, hideTopBar: true, hideButtons: false });
    expect(pathRules('/report1/fullpowerpoint/3')).toEqual({ mobile: true, hideTopBar: true, hideButtons: true });
  });

  it('reads mine, archive and the watermark text with its default 保密', () => {
    expect(flags('')).toEqual({ mine: false, archive: false, watermark: null, print: false });
    expect(flags('mine=1&archive=1')).toMatchObject({ mine: true, archive: true });
    expect(flags('watermark=1').watermark).toBe('保密');
    expect(flags('watermark=1&text=内部资料').watermark).toBe('内部资料');
    expect(flags('text=内部资料').watermark).toBeNull();
  });

  it('hides 收藏 for mine or archived, 归档 for archived, everything under report1 or print', () => {
    const normal = pathRules('/newbi/ppt/view/1');
    expect(visibleButtons(normal, flags(''))).toEqual({
      subscribe: true,
      exportPdf: true,
      fullscreen: true,
      favourite: true,
      archive: true,
      boardControls: true,
    });
    expect(visibleButtons(normal, flags('mine=1'))).toMatchObject({ favourite: false, archive: true });
    expect(visibleButtons(normal, flags('archive=1'))).toMatchObject({ favourite: false, archive: false, exportPdf: true });
    expect(Object.values(visibleButtons(pathRules('/report1/x'), flags('')))).toEqual([false, false, false, false, false, false]);
    expect(Object.values(visibleButtons(normal, flags('print=1')))).toEqual([false, false, false, false, false, false]);
  });

  it('leaves a share link’s visitor 全屏 and the dashboard’s controls only', () => {
    expect(visibleButtons(SHARED_PATH_RULES, flags(''), true)).toEqual({
      subscribe: false,
      exportPdf: false,
      fullscreen: true,
      favourite: false,
      archive: false,
      boardControls: true,
    });
  });
});

describe('paging', () => {
  const visuals = [{ id: 11 }, { id: 12 }, { id: 13 }];

  it('takes 0, a missing or an unknown id as the first dashboard', () => {
    expect(slideIndex(visuals, 0)).toBe(0);
    expect(slideIndex(visuals, undefined)).toBe(0);
    expect(slideIndex(visuals, 99)).toBe(0);
    expect(slideIndex(visuals, 13)).toBe(2);
  });

  it('warns at both ends and stays, otherwise moves one page', () => {
    expect(step(0, -1, 3)).toEqual({ index: 0, warning: '已经是第一个了' });
    expect(step(2, 1, 3)).toEqual({ index: 2, warning: '已经是最后一个了' });
    expect(step(1, 1, 3)).toEqual({ index: 2, warning: null });
    expect(step(1, -1, 3)).toEqual({ index: 0, warning: null });
    expect([nextWrapping(0, 3), nextWrapping(2, 3)]).toEqual([1, 0]);
  });

  it('pages on key codes 37 and 39 only', () => {
    expect(keyStep({ keyCode: 37, key: 'ArrowLeft' })).toBe(-1);
    expect(keyStep({ keyCode: 39, key: 'ArrowRight' })).toBe(1);
    expect(keyStep({ keyCode: 38, key: 'ArrowUp' })).toBeNull();
  });

  it('estimates 10 seconds a page, shown from half to full', () => {
    expect(pdfEstimate(3, 10)).toEqual({ half: 15, full: 30 });
    expect(pdfEstimate(1, 10)).toEqual({ half: 5, full: 10 });
  });
});

describe('auto-play', () => {
  afterEach(() => vi.useRealTimers());

  it('switches every interval, stops on mouse movement and restarts after a quiet interval', () => {
    vi.useFakeTimers();
    const next = vi.fn();
    const play = createAutoPlay(3000, next);
    vi.advanceTimersByTime(2999);
    expect(next).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(next).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3000);
    expect(next).toHaveBeenCalledTimes(2);

    // Movement stops the timer; more movement keeps it stopped.
    play.activity();
    expect(play.running()).toBe(false);
    vi.advanceTimersByTime(2000);
    play.activity();
    vi.advanceTimersByTime(2999);
    expect(next).toHaveBeenCalledTimes(2);
    // 3 s without movement: the timer runs again, the next switch one interval later.
    vi.advanceTimersByTime(1);
    expect(play.running()).toBe(true);
    expect(next).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(3000);
    expect(next).toHaveBeenCalledTimes(3);

    play.dispose();
    vi.advanceTimersByTime(30_000);
    expect(next).toHaveBeenCalledTimes(3);
    play.activity();
    vi.advanceTimersByTime(30_000);
    expect(next).toHaveBeenCalledTimes(3);
  });
});
