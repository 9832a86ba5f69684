/** The Chinese of ../messages-driver.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { driverEn } from '../messages-driver.ts';

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
