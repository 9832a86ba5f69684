/**
 * What a driver does with its hosts' local disks as a whole, whatever store each persists to: a
 * module without the IndexedDB code, so a page can tear its disks down without loading it.
 */
import type { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';

/**
 * Before a restore is planned: every persistent disk's writes queued so far are done (a failed one
 * reconciled), so its listing in memory shows what its database holds, complete copies only (a
 * copy is written in one transaction, whole or not at all). Nothing is read back: the TaskManagers
 * read and verify the copies the plan names.
 */
export async function localDisksSettled(disks: Iterable<HostLocalDisk>): Promise<void> {
  await Promise.all([...disks].map((d) => (d instanceof PersistentHostLocalDisk ? d.persisted() : undefined)));
}

/** The cluster is torn down: each host's database goes with it. */
export async function destroyLocalDisks(disks: Iterable<HostLocalDisk>): Promise<void> {
  await Promise.all([...disks].map((d) => (d instanceof PersistentHostLocalDisk ? d.persisted().then(() => d.persistence.destroy()) : undefined)));
}
