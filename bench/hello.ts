// Baseline: the smallest Fastify server, in its own process, so the report shows what the framework
// and this machine manage before any of Academy's work.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url: `${url}/` });
process.on('disconnect', () => app.close().then(() => process.exit(0)));
