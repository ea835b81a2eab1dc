import { startServer } from '../e2e/support/server.ts';
import { measurePhone, chainFloorMs } from './phone.ts';
const server = await startServer({ RATE_LIMIT_MAX: '100000' });
try {
  const run = await measurePhone(server, Number(process.argv[2] ?? 3));
  for (const [name, samples] of Object.entries(run)) for (const s of samples) console.log(name, Math.round(s.readyMs), 'ms', s.requests, 'requests', s.kilobytes.toFixed(1), 'KB chain', s.chain, 'floor', chainFloorMs(s.chain));
} finally {
  await server.stop();
}
