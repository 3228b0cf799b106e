// A bare Fastify server that sends a fixed copy of one Academy response (same body, same headers)
// without doing any of Academy's work. It shows what this machine and the framework manage for
// exactly those bytes, so that the report separates the cost of Academy's work from the cost of
// its response's size and headers.
import Fastify from 'fastify';

interface Recorded {
  body: string;
  headers: Record<string, string>;
}

process.once('message', async (recorded: Recorded) => {
  const app = Fastify({ logger: false });
  // As bytes, made once, as Academy sends its kept answers.
  const body = Buffer.from(recorded.body);
  app.get('/', (_request, reply) => {
    reply.headers(recorded.headers).send(body);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ url: `${url}/` });
  process.on('disconnect', () => app.close().then(() => process.exit(0)));
});
