// The long fuzz run: every operation of the OpenAPI document, many requests each, on SQLite and
// PostgreSQL, with a fresh seed each time (printed, with the command that replays it).
//   npm run fuzz                          FUZZ_RUNS=300 per operation, a new seed
//   FUZZ_SEED=123 FUZZ_RUNS=1000 npm run fuzz   replay or go longer
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const env = {
  ...process.env,
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '300',
  FUZZ_SEED: process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31 - 1)),
};
console.log(
  `fuzz: seed ${env.FUZZ_SEED}, ${env.FUZZ_RUNS} runs per operation (replay: FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS} npm run fuzz)`,
);
const result = spawnSync(process.execPath, ['scripts/test.ts', 'test/fuzz/operations.test.ts'], { env, stdio: 'inherit' });
console.log(`fuzz: seed ${env.FUZZ_SEED} (replay: FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS} npm run fuzz)`);
process.exit(result.status ?? 1);
