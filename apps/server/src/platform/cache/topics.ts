/** The topics of the cache bus (bus.ts): each per-process cache of metadata belongs to one. */
export const CACHE_TOPICS = ['perm', 'session', 'datasource', 'settings', 'dict', 'dataset', 'read'] as const;
export type CacheTopic = (typeof CACHE_TOPICS)[number];
