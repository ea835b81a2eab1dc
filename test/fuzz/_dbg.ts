import fc from 'fast-check';
import { makeFixtures, planFor, startFuzzApp, toInject } from '/work/wt/fuzz/test/fuzz/harness.ts';
const fuzz = await startFuzzApp('pglite');
const f = await makeFixtures(fuzz.app);
const ep = fuzz.endpoints.find(e => e.url === '/checkout/order/create')!;
const msgs: Record<string, number> = {};
for (const plan of fc.sample(planFor(ep, f), 200)) {
  const r = await fuzz.app.inject(await toInject(plan, f));
  const k = `${r.statusCode} ${r.json().message?.slice(0, 90)}`; msgs[k] = (msgs[k] ?? 0) + 1;
}
console.log(Object.entries(msgs).sort((a,b)=>b[1]-a[1]).slice(0,12));
await fuzz.close();
