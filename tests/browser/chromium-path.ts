// The browser tests and `ckpt-lab check --live` find Chromium the same way: the finder lives with the CLI's Node-only code.
export * from '../../node/chromium-path.ts';
