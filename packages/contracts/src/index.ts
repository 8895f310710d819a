import { z } from 'zod';

// Zod's own messages (for checks our schemas do not word themselves) speak Chinese too.
z.config(z.locales.zhCN());

export * from './envelope.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './profile.ts';
export * from './system.ts';
export * from './org.ts';
export * from './dict.ts';
export * from './datasource.ts';
export * from './api.ts';
export * from './cube.ts';
export * from './filetable.ts';
export * from './sqlview.ts';
export * from './query.ts';
export * from './perm.ts';
export * from './dataset.ts';
export * from './board.ts';
export * from './export.ts';
export * from './ppt.ts';
export * from './subscription.ts';
export * from './share.ts';
export * from './home.ts';
export * from './time-zone.ts';
export * from './pivot-layout.ts';
export * from './dataapi.ts';
export * from './heatmap.ts';
export * from './track.ts';
export * from './orderexport.ts';
export * from './alert.ts';
export * from './market.ts';
export * from './ai.ts';
export * from './workflow.ts';
export * from './tag.ts';
