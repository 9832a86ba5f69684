import { buildAndServe, openFreshPage, addPageScript } from './built-app.ts';
const { server, baseUrl } = await buildAndServe();
for (let round = 0; round < 2; round++) {
  const { page, close } = await openFreshPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await addPageScript(page, () => {
    const w = window as any;
    w.__marks = { long: [] as any[] };
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__marks.long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
    let api: any;
    Object.defineProperty(window, 'playground', { configurable: true, get: () => api, set(v) { api = v; w.__marks.api = performance.now(); v.on('checkpoint-completed', () => (w.__marks.cp ??= performance.now())); v.on('status', () => {}); } });
  });
  await page.goto(baseUrl);
  await page.waitForFunction(() => (window as any).__marks?.cp !== undefined, undefined, { timeout: 120000 });
  const { profile } = await cdp.send('Profiler.stop');
  const marks = await page.evaluate(() => { const m = (window as any).__marks; const nav = performance.getEntriesByType('navigation')[0] as any; return { ...m, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, res: performance.getEntriesByType('resource').map((r: any) => [r.name.split('/').pop(), Math.round(r.startTime), Math.round(r.responseEnd)]) }; });
  console.log(JSON.stringify(marks));
  // self time per function
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const dt = profile.timeDeltas as number[];
  profile.samples.forEach((id: number, i: number) => {
    const n: any = byId.get(id);
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${Math.round(v)} ${k}`).join('\n'));
  await close();
}
await server.close();
