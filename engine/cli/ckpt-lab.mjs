#!/usr/bin/env node
// The `ckpt-lab` command. The engine is TypeScript; tsx compiles it on the fly so that
// `npx ckpt-lab` works from a checkout and from an install without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
