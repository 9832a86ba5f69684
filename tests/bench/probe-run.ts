import { probe } from './probe-restore.ts'; await probe();
