/**
 * The TaskManager worker entry: one Web Worker is one TaskManager. The JobManager on the main
 * thread drives it over Comlink (workers/protocol.ts, TaskManagerGateway); everything it hosts is
 * in task-manager.ts. Worker.terminate() is a TaskManager crash: its state and in-flight data go
 * with it.
 */
import * as Comlink from 'comlink';
import { TaskManager } from './task-manager.ts';

Comlink.expose(new TaskManager());
