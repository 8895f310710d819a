/** The public face of the workflow module: other modules import only what is exported here (the boundary check enforces it). */
export { registerWorkflowRoutes } from './routes.ts';
export { countTodo, workLists } from './queries.ts';
export { workflowJobs } from './notify.ts';
