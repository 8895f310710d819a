/** The audience feature's public face (issue 18; docs/audiences.md): the pages the shell routes to. */
export { AudienceListPage } from './AudienceListPage.tsx';
export { aum as audienceLabels } from './messages.ts';
export { AUDIENCE_EDIT_PATH, AUDIENCE_LIST_PATH } from './paths.ts';
