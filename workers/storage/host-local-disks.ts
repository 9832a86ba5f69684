/**
 * What a driver does with its hosts' local disks as a whole, whatever store each persists to: a
 * module without the IndexedDB code, so a page can tear its disks down without loading it.
 */
import type { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';

/** After a restore read the copies it needed: their bytes stay in the hosts' databases only. */
export function releaseLocalDiskContents(disks: Iterable<HostLocalDisk>): void {
  for (const d of disks) if (d instanceof PersistentHostLocalDisk) d.releaseContents();
}

/** Before a restore: every persistent disk re-reads what its database holds. */
export async function reloadLocalDisks(disks: Iterable<HostLocalDisk>): Promise<void> {
  await Promise.all([...disks].map((d) => (d instanceof PersistentHostLocalDisk ? d.reload() : undefined)));
}

/** The cluster is torn down: each host's database goes with it. */
export async function destroyLocalDisks(disks: Iterable<HostLocalDisk>): Promise<void> {
  await Promise.all([...disks].map((d) => (d instanceof PersistentHostLocalDisk ? d.persisted().then(() => d.persistence.destroy()) : undefined)));
}
