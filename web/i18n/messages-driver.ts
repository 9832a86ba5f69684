/** UI text of the driver choice (sim or live) and the live runtime's status (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). */

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
