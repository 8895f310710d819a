import { pptMessages } from '@shutu/contracts/ppt-constants';
import type { PptVisual } from '@shutu/contracts';

/**
 * The slideshow viewer's rules (spec 1 §2.10, §4), pure: what the address says (path rules
 * and query flags), which dashboard an id means, and paging with its warnings at both ends.
 */

export interface PathRules {
  /** 'fullpowerpoint': the mobile / full-screen form. */
  mobile: boolean;
  /** 'full' anywhere in the path: no top bar. */
  hideTopBar: boolean;
  /** 'report1' anywhere in the path: no buttons at all. */
  hideButtons: boolean;
}

export function pathRules(pathname: string): PathRules {
  return {
    mobile: pathname.includes('fullpowerpoint'),
    hideTopBar: pathname.includes('full'),
    hideButtons: pathname.includes('report1'),
  };
}

export interface ViewerFlags {
  /** mine=1: the user's own slideshow (no 收藏幻灯片). */
  mine: boolean;
  /** archive=1: an archived slideshow (no 收藏 / 归档; the month shown is the slideshow's). */
  archive: boolean;
  /** watermark=1: the watermark text (text=…, default 保密); null without the flag. */
  watermark: string | null;
  /** print=1 (the server's PDF renderer): the dashboard alone, no chrome, no auto-play. */
  print: boolean;
}

const on = (value: string | null) => value === '1' || value === 'true';

export function viewerFlags(search: URLSearchParams): ViewerFlags {
  return {
    mine: on(search.get('mine')),
    archive: on(search.get('archive')),
    watermark: on(search.get('watermark')) ? search.get('text')?.trim() || pptMessages.watermarkDefault : null,
    print: on(search.get('print')),
  };
}

/** The rules of a slideshow opened through a share link: its address (/share/{code}) says nothing of the viewer's form. */
export const SHARED_PATH_RULES: PathRules = { mobile: false, hideTopBar: false, hideButtons: false };

/**
 * Which buttons the viewer offers (spec 1 §2.10 Buttons) under its path rules and flags.
 * `shared` (a share link's visitor, no session): 订阅, 导出pdf, 收藏 and 归档 act for a
 * signed-in user, so they are left out; 全屏 and the dashboard's own controls stay.
 */
export function visibleButtons(rules: PathRules, flags: ViewerFlags, shared = false) {
  const any = !rules.hideButtons && !flags.print;
  const signedIn = any && !shared;
  return {
    subscribe: signedIn,
    exportPdf: signedIn,
    fullscreen: any,
    favourite: signedIn && !flags.mine && !flags.archive,
    archive: signedIn && !flags.archive,
    /** The current dashboard's 导航, 清除联动 and dialog-chart buttons. */
    boardControls: any,
  };
}

/** The position of dashboard `id` in the slideshow; 0, missing or not in it: the first. */
export function slideIndex(visuals: readonly Pick<PptVisual, 'id'>[], id: number | null | undefined): number {
  if (!id) return 0;
  const index = visuals.findIndex((v) => v.id === id);
  return index < 0 ? 0 : index;
}

export type PageStep = { index: number; warning: null } | { index: number; warning: string };

/**
 * One step back (-1) or forward (+1): on the first page going back warns 已经是第一个了, on
 * the last going forward warns 已经是最后一个了, and the page stays.
 */
export function step(index: number, delta: -1 | 1, count: number): PageStep {
  const next = index + delta;
  if (next < 0) return { index, warning: pptMessages.first };
  if (next >= count) return { index, warning: pptMessages.last };
  return { index: next, warning: null };
}

/** Auto-play's next page: forward, wrapping from the last to the first. */
export const nextWrapping = (index: number, count: number) => (count <= 0 ? 0 : (index + 1) % count);

/** Key codes that page (spec 1 §2.10): 37 left, 39 right. */
export const KEY_PREV = 37;
export const KEY_NEXT = 39;
export function keyStep(event: Pick<KeyboardEvent, 'keyCode' | 'key'>): -1 | 1 | null {
  if (event.keyCode === KEY_PREV || event.key === 'ArrowLeft') return -1;
  if (event.keyCode === KEY_NEXT || event.key === 'ArrowRight') return 1;
  return null;
}

/** The PDF estimate (spec 1 §9: 10 s a page) shown as half to full: "预计 {half}–{full} 秒". */
export function pdfEstimate(pages: number, secondsPerPage: number): { half: number; full: number } {
  const full = Math.max(0, pages) * secondsPerPage;
  return { half: Math.round(full / 2), full };
}
