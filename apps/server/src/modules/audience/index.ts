/** The public face of the audience module: other modules import only what is exported here (the boundary check enforces it). */
export {
  audienceMemberSql,
  getAudienceDetail,
  listAudiences,
  materialiseAudience,
  materialiseAudienceSelect,
  recordComputation,
  registerAudienceComputer,
  saveAudienceRow,
  type AudienceComputer,
} from './service.ts';
export { registerAudienceRoutes } from './routes.ts';
export { audienceJobs } from './jobs.ts';
