/** Web routes: the workbench is the spec's; the two forms' paths are ours (the spec shows only their query). */
export const WORK_START_PATH = '/work/start';

export const LEAVE_START_PATH = '/work/process/leave/form';

export const LEAVE_HANDLE_PATH = '/work/process/leave/handle';

export const workflowMessages = {
  approverRequired: '请选择审批人员',
  startRequired: '请选择开始时间',
  endRequired: '请选择结束时间',
  reasonRequired: '请输入请假理由',
  commentRequired: '请先填写批复意见',
  submitFailed: '提交失败',
  /** Ours: the old product did not check the order of the two times. */
  endBeforeStart: '结束时间不能早于开始时间',
  timeFormat: '时间格式应为 yyyy-MM-dd HH:mm:ss',
  reasonTooLong: '请假理由不能超过 500 个字符',
  commentTooLong: '批复意见不能超过 500 个字符',
  started: '已提交',
  done: '操作成功!',
  withdrawn: '已撤回',
  transferred: '已转交',
  definitionNotFound: '流程定义不存在',
  instanceNotFound: '流程实例不存在',
  taskNotFound: '任务不存在',
  taskDone: '该任务已处理，不能重复提交',
  notAssignee: '只有当前审批人可以处理该任务',
  noAccess: '无权查看该流程',
  approverNotFound: '审批人员不存在或已停用',
  selfApprover: '审批人员不能是申请人本人',
  notStarter: '只有申请人可以撤回',
  notRunning: '该申请已办结，不能撤回',
  transferTargetRequired: '请选择转交人员',
  transferToSelf: '不能转交给自己',
  mailTitle: '待审批：{starter}的{process}',
} as const;
