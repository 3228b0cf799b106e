// Baseline: the smallest Fastify server, in its own process, so the report shows what the framework
// and this machine manage before any of Academy's work. BENCH_PORT with BENCH_REUSE_PORT=1 lets
// several share one port, as Academy's benchmark servers do (bench/app-server.ts).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
// reusePort goes through to net.Server#listen, which Fastify's own type of the options leaves out.
const listenOptions = { port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1', reusePort: process.env.BENCH_REUSE_PORT === '1' };
const url = await app.listen(listenOptions);
process.send?.({ url: `${url}/` });
process.on('disconnect', () => app.close().then(() => process.exit(0)));
