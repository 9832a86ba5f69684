/** UI text of the driver choice (sim or live) and the live runtime's status (merged into `en` and `zhCN` in messages.ts). */

export const driverEn = {
  'driver.label': 'Runtime',
  'driver.sim': 'Simulated',
  'driver.live': 'Live workers',
  'driver.simHint': 'The deterministic simulator on a virtual clock: step one event, fast-forward, replay.',
  'driver.liveHint': 'Each TaskManager is a real Web Worker, checkpoints go to IndexedDB, time is the wall clock.',
  'driver.booting': 'Starting TaskManager workers…',
  'status.driver': 'Driver',
  'status.driverSim': 'sim',
  'status.driverLive': 'live · {n, plural, one {# worker} other {# workers}}',
  'status.clockLive': 'Job time (wall clock)',
  'controls.stepSimOnly': 'Step works in the simulated runtime only',
  'driver.storageDeniedEmbedded':
    'The browser denies storage to this playground embedded in another site, so live workers cannot run here and the simulator keeps its checkpoints in memory only, gone when the page closes.',
  'driver.storageDenied':
    'The browser denies this page storage, so live workers cannot run here and the simulator keeps its checkpoints in memory only, gone when the page closes.',
  'driver.rocksdbLocalDirInIndexedDb':
    'This browser offers no Origin Private File System, so the TaskManagers keep their RocksDB working directories (state.backend.rocksdb.localdir) in IndexedDB instead: the job runs the same, the state is held in memory and written to IndexedDB.',
  'resume.offer': 'The page was reloaded while a live run was going. Resume the run interrupted at job time {jobTime} s from checkpoint {checkpoint}?',
  'resume.resume': 'Resume',
  'resume.discard': 'Discard',
} as const;

export const driverZhCN: { readonly [K in keyof typeof driverEn]: string } = {
  'driver.label': '运行方式',
  'driver.sim': '模拟',
  'driver.live': '真实 Worker',
  'driver.simHint': '在虚拟时钟上运行的确定性模拟器：可单步、快进、重放。',
  'driver.liveHint': '每个 TaskManager 都是真实的 Web Worker，Checkpoint 写入 IndexedDB，时间是墙上时钟。',
  'driver.booting': '正在启动 TaskManager Worker…',
  'status.driver': '驱动',
  'status.driverSim': 'sim',
  'status.driverLive': 'live · {n} 个 Worker',
  'status.clockLive': '作业时间（墙上时钟）',
  'controls.stepSimOnly': '单步只在模拟运行方式下可用',
  'driver.storageDeniedEmbedded': '浏览器不允许嵌入在其他网站中的演练场使用存储，因此这里无法运行真实 Worker，模拟器只把 Checkpoint 保存在内存中，页面关闭后即丢失。',
  'driver.storageDenied': '浏览器不允许本页使用存储，因此这里无法运行真实 Worker，模拟器只把 Checkpoint 保存在内存中，页面关闭后即丢失。',
  'driver.rocksdbLocalDirInIndexedDb':
    '此浏览器不提供 Origin Private File System（OPFS），因此 TaskManager 改用 IndexedDB 存放 RocksDB 的本地工作目录（state.backend.rocksdb.localdir）：作业照常运行，状态保存在内存中并写入 IndexedDB。',
  'resume.offer': '页面在 live 作业运行时被重新加载。要从 checkpoint {checkpoint} 恢复这个在作业时间 {jobTime} 秒处中断的作业吗？',
  'resume.resume': '恢复运行',
  'resume.discard': '丢弃',
};
