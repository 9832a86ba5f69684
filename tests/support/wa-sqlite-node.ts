/** Tests load wa-sqlite the way the CLI does (engine/cli is the engine's Node shell). */
export { loadNodeSqlite, openNodeDatabase, nodeLsmStorage, type NodeSqlite, type NodeSqliteVfs } from '../../engine/cli/wa-sqlite-node.ts';
