import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The playground is served from web/; public/ holds static files (example scenarios, wasm).
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [svelte()],
  build: { outDir: '../dist', emptyOutDir: true },
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  test: {
    root: '.',
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
