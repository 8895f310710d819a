/** The public face of the tag feature. */
export { TagLibraryPage } from './TagLibraryPage.tsx';
export { TagDetailPage } from './TagDetailPage.tsx';
export { tg as tagLabels } from './messages.ts';
export { PROFILE_COMPARE_PATH, TAG_AUDIENCE_PATH, TAG_DETAIL_PATH, TAG_LIBRARY_PATH } from './paths.ts';
