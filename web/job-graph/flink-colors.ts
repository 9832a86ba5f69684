/**
 * The Flink web dashboard's status colours (flink-runtime-web `app.config.ts`, COLOR_MAP), so a
 * subtask, a job or a checkpoint looks here as it does there.
 */
export const EXECUTION_STATE_COLORS: Readonly<Record<string, string>> = {
  CREATED: '#2f54eb',
  SCHEDULED: '#722ed1',
  DEPLOYING: '#13c2c2',
  INITIALIZING: '#738df8',
  RUNNING: '#52c41a',
  FINISHED: '#1890ff',
  CANCELING: '#faad14',
  CANCELED: '#fa8c16',
  FAILED: '#f5222d',
  RECONCILING: '#eb2f96',
};

export const JOB_STATUS_COLORS: Readonly<Record<string, string>> = {
  ...EXECUTION_STATE_COLORS,
  RESTARTING: '#13c2c2',
  FAILING: '#faad14',
  CANCELLING: '#faad14',
};

export const CHECKPOINT_STATUS_COLORS: Readonly<Record<string, string>> = {
  IN_PROGRESS: '#faad14',
  COMPLETED: '#1890ff',
  FAILED: '#f5222d',
};

export function statusColor(table: Readonly<Record<string, string>>, status: string): string {
  return table[status] ?? '#8c8c8c';
}
