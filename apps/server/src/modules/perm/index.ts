/** The public face of the perm module: other modules import only what is exported here (the boundary check enforces it). */
export { checkGrantableGroups, listGrants, listGroupsOf, removeGrantsOf, replaceGrants, requireGroup, setGroupsOf } from './grants-service.ts';
export {
  PUBLIC_STATUS,
  grantedIds,
  grantedTables,
  groupIdsOf,
  invalidatePermissions,
  mayView,
  ownerCaller,
  usableSources,
  type Caller,
} from './permissions.ts';
export { findGroup, listTableGrants, replaceTableGrants } from './repo.ts';
export { listWritableSources, setSourceWritable, writableSources } from './write-grants.ts';
