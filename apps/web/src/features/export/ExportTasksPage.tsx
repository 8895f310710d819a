/** Placeholder until the export-task page lands (/newbi/mine/export). */
export function ExportTasksPage() {
  return null;
}
