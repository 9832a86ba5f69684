import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { preview } from 'vite';
import { openFreshPage, addPageScript } from './built-app.ts';
const { NODE_ENV: _, ...env } = process.env;
execFileSync('/work/main/node_modules/.bin/vite', ['build', '-c', '/tmp/probe.vite.config.ts', '--logLevel', 'warn'], { cwd: '/work/main', env, stdio: 'ignore' });
const server = await preview({ configFile: '/tmp/probe.vite.config.ts', root: '/work/main/web', logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: true } });
const baseUrl = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
const { page, close } = await openFreshPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await addPageScript(page, () => {
  const w = window as any;
  w.__marks = { long: [] as any[] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__marks.long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  let api: any;
  Object.defineProperty(window, 'playground', { configurable: true, get: () => api, set(v) { api = v; v.on('checkpoint-completed', () => (w.__marks.cp ??= performance.now())); } });
});
await cdp.send('Profiler.start');
await page.goto(baseUrl);
await page.waitForFunction(() => (window as any).__marks?.cp !== undefined, undefined, { timeout: 120000 });
const { profile } = await cdp.send('Profiler.stop');
console.log(JSON.stringify(await page.evaluate(() => (window as any).__marks)));
const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
const incl = new Map<string, number>();
let t = 0;
const windowArg = process.argv[2]?.split('-').map(Number);
profile.samples.forEach((id: number, i: number) => {
  t += (profile.timeDeltas[i] ?? 0) / 1000;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
});
console.log([...incl].sort((a, b) => b[1] - a[1]).slice(0, 90).map(([k, v]) => `${Math.round(v)} ${k}`).join('\n'));
await close();
await server.close();
