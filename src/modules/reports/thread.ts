// The report generator's thread (see generateInThread): a platform of its own over the same database
// and storage, one report generated, the outcome posted back.
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../../config.ts';
import { systemContext } from '../../platform/context.ts';
import { withRequestId } from '../../platform/trace.ts';
import { assemble } from '../index.ts';
import { reportServiceFor } from './service.ts';

const { config, reportId, requestId, logLevel } = workerData as {
  config: Config;
  reportId: number;
  requestId: string | null;
  logLevel: string;
};
// The thread logs where the worker logs (stdout, JSON lines); every line names the request it serves.
const logger = pino({ level: logLevel, base: undefined }, pino.destination(1)).child(requestId ? { requestId } : {});
const platform = assemble(config, { logger });
try {
  const outcome = await withRequestId(requestId, () => reportServiceFor(platform).generate(systemContext(platform, requestId), reportId));
  parentPort?.postMessage({ outcome });
} finally {
  await platform.close();
}
