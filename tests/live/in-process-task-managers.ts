/**
 * TaskManagers for Node tests of the live runtime: each is the worker's TaskManager class run in
 * this thread, behind Comlink on a Node MessageChannel, so the JobManager talks to it exactly as
 * to a Web Worker. Killing one shuts it down and closes its ports: it stops answering, and the
 * JobManager must notice from the heartbeats, as with Worker.terminate().
 */
import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { TaskManager } from '../../workers/task-manager.ts';
import { nodeLsmStorage } from '../../engine/cli/wa-sqlite-node.ts';
import type { TaskManagerGateway } from '../../workers/protocol.ts';
import type { LsmStorageLoader } from '../../workers/task-manager.ts';
import type { TaskManagerLauncher } from '../../workers/live/task-manager-process.ts';

export interface InProcessCluster {
  launch: TaskManagerLauncher;
  /** every TaskManager started, by launch order; `alive` until killed */
  readonly started: Array<{ name: string; alive: boolean }>;
}

/** One MemoryVFS database per attempt, gone with it: no host directory (the heartbeat reports none). */
const memoryWorkingDatabases: LsmStorageLoader = async () => async () => ({ factory: await nodeLsmStorage(), path: undefined, bytes: () => 0, dispose: async () => {} });

export function inProcessTaskManagers(): InProcessCluster {
  const started: InProcessCluster['started'] = [];
  const launch: TaskManagerLauncher = (name) => {
    // wa-sqlite from Node's file system (the worker's loader fetches it), on MemoryVFS (Node has no OPFS).
    const taskManager = new TaskManager({ loadLsmStorage: memoryWorkingDatabases });
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(taskManager, port1);
    const entry = { name, alive: true };
    started.push(entry);
    return {
      gateway: Comlink.wrap<TaskManagerGateway>(port2),
      terminate() {
        if (!entry.alive) return;
        entry.alive = false;
        taskManager.shutdown();
        port1.close();
        port2.close();
      },
      onCrash() {},
    };
  };
  return { launch, started };
}
