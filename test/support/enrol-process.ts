// A process that enrols students into one session when told to, for the concurrency tests: it builds
// a platform from the environment like `academy` does, prints "ready", and on SIGUSR1 calls the
// enrolment service for every student at once (as many transactions in flight as its connection pool
// allows), then prints one JSON line with the outcomes and exits.
//   env: DATABASE_URL, SESSION_ID, STUDENT_IDS (comma-separated)
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { operatorContext } from '../../src/platform/context.ts';

const { platform, services } = assemble(loadConfig(), { logger: pino({ level: 'warn' }, pino.destination(2)) });
const ctx = operatorContext(platform);
const { enrolments } = services;
const sessionId = Number(process.env.SESSION_ID);
const students = (process.env.STUDENT_IDS ?? '').split(',').map(Number);

// Open the connections first, so that the enrolments themselves start together.
await platform.database.db.selectFrom('training_sessions').select('id').where('id', '=', sessionId).execute();
const go = new Promise((resolve) => process.once('SIGUSR1', resolve));
process.stdout.write('ready\n');
await go;
const outcomes = await Promise.all(
  students.map((id) =>
    enrolments.enrol(ctx, { student_id: id, session_id: sessionId }).then(
      (e) => ({ id: e.id, status: e.status }),
      (error: Error) => ({ error: error.message }),
    ),
  ),
);
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
await platform.close();
