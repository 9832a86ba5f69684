/** @journeyapps/wa-sqlite 2.0.6 ships its pool VFS example without typings; task-manager-lsm-storage.ts types what it uses. */
declare module '@journeyapps/wa-sqlite/src/examples/AccessHandlePoolVFS.js' {
  export const AccessHandlePoolVFS: unknown;
}
