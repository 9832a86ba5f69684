/** The Chinese of ../messages-flink-names.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { flinkNamesEn } from '../messages-flink-names.ts';

export const flinkNamesZhCN: { readonly [K in keyof typeof flinkNamesEn]: string } = {
  'flinkName.tooltip': '{name} — {explanation}',

  'flinkName.jobStatus.CREATED': '作业已提交，正在等待调度其任务。',
  'flinkName.jobStatus.RUNNING': '作业正在运行：任务已部署，正在处理数据。',
  'flinkName.jobStatus.RESTARTING': '有任务失败：作业取消其任务，并在重启策略允许时从最近一次完成的 checkpoint 重新启动。',
  'flinkName.jobStatus.FAILING': '作业失败且重启策略不再允许重启：正在取消任务，随后进入 FAILED。',
  'flinkName.jobStatus.FAILED': '作业最终失败：重启策略不再允许重启。',
  'flinkName.jobStatus.CANCELLING': '作业正在取消：其任务正在停止。',
  'flinkName.jobStatus.CANCELED': '作业已取消：已经停止，不会再重启。',
  'flinkName.jobStatus.FINISHED': '作业已结束：source 都已读完，所有任务均已完成。',
  'flinkName.jobStatus.INITIALIZING': 'JobManager 已收到作业，正在做启动准备。',
  'flinkName.jobStatus.SUSPENDED': '作业已挂起，例如其 JobManager 失去了 leader 身份；将由另一个 JobManager 接管。',

  'flinkName.executionState.CREATED': '子任务已创建，但还没有分到 slot。',
  'flinkName.executionState.DEPLOYING': '子任务正在部署到 TaskManager 的 slot 上。',
  'flinkName.executionState.INITIALIZING': '子任务正在恢复状态（有 checkpoint 时从 checkpoint 恢复），之后才开始处理数据。',
  'flinkName.executionState.RUNNING': '子任务正在处理数据。',
  'flinkName.executionState.FINISHED': '子任务已处理完全部输入并结束。',
  'flinkName.executionState.CANCELING': '子任务正在取消：作业正在故障恢复或被取消。',
  'flinkName.executionState.CANCELED': '子任务已取消。',
  'flinkName.executionState.FAILED': '子任务因错误失败，作业随之进行故障恢复。',
  'flinkName.executionState.SCHEDULED': '子任务已分到 slot，正在等待部署。',

  'flinkName.checkpointStatus.IN_PROGRESS': 'checkpoint 已触发，但还没有收到所有子任务的确认。',
  'flinkName.checkpointStatus.COMPLETED': '所有子任务都已确认，元数据也已写入：作业可以从这个 checkpoint 恢复。',
  'flinkName.checkpointStatus.FAILED': 'checkpoint 被中止（超时、任务失败或存储出错），其文件已被删除。',

  'flinkName.checkpointingMode.EXACTLY_ONCE': '恢复后每条记录在状态中恰好只计一次：有多个输入的子任务会对齐各输入的 barrier（开启非对齐 checkpoint 时，则把在途数据一并存入 checkpoint）。',
  'flinkName.checkpointingMode.AT_LEAST_ONCE': 'barrier 不对齐：子任务继续处理 barrier 已到的输入，因此恢复后部分记录会被重复计算。',

  'flinkName.savepointFormat.CANONICAL': 'Flink 自己的统一格式的 savepoint，与状态后端无关：可以换用另一种状态后端恢复，代价是快照较慢。',
  'flinkName.savepointFormat.NATIVE': '状态后端原生格式的 savepoint（RocksDB 的文件）：生成和恢复都更快，但只能用同一种状态后端恢复。',

  'flinkName.stateHandle.KeyGroupsStateHandle': '一段 key group 范围内 keyed state 的全量快照，存为一个文件。',
  'flinkName.stateHandle.IncrementalRemoteKeyedStateHandle': 'RocksDB 对一段 key group 范围的增量快照：新的 SST 文件被上传，旧的与之前的 checkpoint 共享。',
  'flinkName.stateHandle.OperatorStateHandle': '算子状态（非 keyed），例如 source 的读取位置：扩缩容时在子任务间重新分配。',
  'flinkName.stateHandle.InputChannelStateHandle': '做非对齐 checkpoint 时，输入通道中的在途数据。',
  'flinkName.stateHandle.ResultSubpartitionStateHandle': '做非对齐 checkpoint 时，输出缓冲区（result subpartition）中的数据。',

  'flinkName.partitioner.FORWARD': '每个子任务把记录发给下游算子中序号相同的那个子任务。',
  'flinkName.partitioner.HASH': '记录按其 key 所属的 key group 发往对应的子任务（keyBy）：同一个 key 总是落在同一个子任务上。',
  'flinkName.partitioner.REBALANCE': '记录轮流发往下游算子的所有子任务。',
  'flinkName.partitioner.BROADCAST': '每条记录都发往下游算子的每个子任务。',
};
