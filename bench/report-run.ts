// One report generated in a process of its own (for bench/reports.ts): requests an enrolments report
// in the given format on the given database and runs the generation job's work here, sampling this
// process's resident memory every 20 ms. Prints one JSON line: seconds, the process's CPU seconds (its
// threads', the generator's included: what the report cost whatever else loaded the machine), rows,
// bytes, RSS before and peak.
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { createReportGenerator } from '../src/modules/reports/generator.ts';
import { systemContext } from '../src/platform/context.ts';
import { benchSecretKey } from './datasets.ts';

const [url, dataDir, format = 'csv'] = process.argv.slice(2);
const { platform, services } = assemble(loadConfig({ DATABASE_URL: url, ACADEMY_DATA_DIR: dataDir, ...benchSecretKey }), {
  logger: pino({ level: 'warn' }),
});
const ctx = systemContext(platform);
const { reports } = services;
const report = await reports.request(ctx, { type: 'enrolments', format: format as 'csv' | 'xlsx' });
const before = process.memoryUsage.rss();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const generator = createReportGenerator(platform.config);
const outcome = await generator.generate(report.id, null, platform.logger);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
const done = await reports.get(ctx, report.id);
// The benchmark's report is not kept: its file and row are removed again.
const row = await platform.database.db.selectFrom('reports').select('storage_key').where('id', '=', report.id).executeTakeFirst();
if (row?.storage_key) await platform.storage.delete(row.storage_key);
await platform.database.db.deleteFrom('reports').where('id', '=', report.id).execute();
await generator.close();
await platform.close();
process.stdout.write(
  `${JSON.stringify({ outcome, seconds, cpu: (cpu.user + cpu.system) / 1e6, rows: done.row_count, bytes: done.size, before, peak, reason: done.failure_reason })}\n`,
);
