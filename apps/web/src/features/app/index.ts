/** The app feature's public face: the list page, the grant tab, the settings card, paths and the shared api. */
export { AppListPage } from './AppListPage.tsx';
export { AppGrantTab } from './AppGrantTab.tsx';
export { FrameSettingsCard } from './FrameSettingsCard.tsx';
export { am as appLabels } from './messages.ts';
export * from './paths.ts';
