#!/usr/bin/env node
// The `ckpt-lab` command. The engine is TypeScript; tsx compiles it on the fly so that
// `npx ckpt-lab` works from a checkout and from an install without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
// `check --live` runs in headless Chromium: node/live-check.ts launches it. engine/ launches no
// browser, so the runner comes in from here, and is loaded only when a live check asks for it.
const liveCheck = async (requests, showProgress) => (await import('../../node/live-check.ts')).runScenariosLive(requests, showProgress);
process.exitCode = await main(process.argv.slice(2), { liveCheck });
