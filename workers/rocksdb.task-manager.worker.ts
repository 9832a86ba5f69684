/**
 * The TaskManager worker entry of a rocksdb job: task-manager.worker.ts's, with the working
 * database's modules (wa-sqlite and its VFS: task-manager-lsm-storage.ts) in the process's own
 * module graph, fetched alongside the TaskManager's as the process starts. Loaded lazily, as a
 * hashmap job's TaskManager does, they came after its registration, inside the first deployment:
 * a killed TaskManager's replacement spent about 110 ms of its restore on them.
 */
import './task-manager.worker.ts';
import './task-manager-lsm-storage.ts';
