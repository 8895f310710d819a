/** The public face of the tag feature: labels and paths (the router loads each page's file on first use). */
export { tg as tagLabels } from './messages.ts';
export { PROFILE_COMPARE_PATH, TAG_AUDIENCE_PATH, TAG_DETAIL_PATH, TAG_LIBRARY_PATH } from './paths.ts';
