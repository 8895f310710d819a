/** Slideshows' messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the viewers import them from here; ppt.ts re-exports them. */

export const pptMessages = {
  nameRequired: '请填写幻灯片名称',
  visualsRequired: '请至少选择一个大屏',
  monthInvalid: '月份格式应为 yyyy-MM',
  notFound: '幻灯片不存在',
  forbidden: '没有此幻灯片权限',
  notOwned: '只能修改或删除自己创建的幻灯片',
  categoryNotFound: '分类不存在',
  categoryNameRequired: '请填写分类名',
  first: '已经是第一个了',
  last: '已经是最后一个了',
  prev: '上一页',
  next: '下一页',
  subscribe: '订阅幻灯片',
  exportPdf: '导出pdf',
  fullscreen: '全屏',
  exitFullscreen: '退出全屏',
  favourite: '收藏幻灯片',
  archive: '归档幻灯片',
  clearLinkage: '清除联动',
  navigation: '导航',
  backToTop: '返回顶部↑',
  exportTypeRequired: '请选择导出类型！',
  exportEmpty: '暂无可用于导出的数据，请检查报表图片是否存在！',
  favourited: '已收藏',
  archived: '已归档',
  submitted: '已提交',
  saved: '已保存',
  deleted: '已删除',
  watermarkDefault: '保密',
  categoryNameTaken: '分类名称已存在',
  visualMissing: '大屏【{id}】不存在',
  visualForbidden: '没有大屏【{title}】的权限',
  sourceRequired: '请指定要收藏或归档的幻灯片',
} as const;

/** visualType of a slideshow record. */
export const PPT_VISUAL_TYPES = { normal: 0, favourite: 1, archive: 2 } as const;
export type PptVisualType = (typeof PPT_VISUAL_TYPES)[keyof typeof PPT_VISUAL_TYPES];

/** The default category (id 0, 默认分类) is prepended to the favourite and archive category lists. */
export const DEFAULT_PPT_CATEGORY = { id: 0, classifyName: '默认分类' } as const;
export const PPT_NAME_MAX_LENGTH = 100;
export const MAX_PPT_VISUALS = 100;
/** Auto-play interval bounds (seconds). */
export const PPT_INTERVAL = { min: 3, max: 3600, default: 10 } as const;
/** The PDF export's estimate (spec 1 §9): 10 seconds per page. */
export const PDF_SECONDS_PER_PAGE = 10;
/** Watermark drawing (spec 1 §9): 45 degrees, grey, 40 px. */
export const WATERMARK_STYLE = { angle: 45, color: 'rgba(128,128,128,0.35)', fontSize: 40 } as const;
