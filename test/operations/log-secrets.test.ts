import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createTestDatabase } from '../support/database.ts';
import { startServer } from '../support/process.ts';

test('no secret from a URL reaches the log: invitation tokens and other secret-bearing parameters are redacted', async () => {
  const database = await createTestDatabase();
  after(() => database.drop());
  const server = await startServer(['--no-worker'], {
    DATABASE_URL: database.url,
    ACADEMY_DATA_DIR: database.dataDir,
    LOG_LEVEL: 'info',
    ACADEMY_ACCESS_LOG: 'true',
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  const secrets = ['inv1tat10nS3cretValue', 'Upp3rCas3S3cret', 'encodedS3cretName', 'apiQueryS3cret', 'codeS3cret', 'stateS3cret'];
  const targets = [
    `/invitations/accept?token=${secrets[0]}`,
    `/invitations/accept?lang=en&TOKEN=${secrets[1]}`,
    `/invitations/accept?%74oken=${secrets[2]}`,
    `/api/v1/organization?token=${secrets[3]}&per_page=2`,
    `/auth/callback?code=${secrets[4]}&state=${secrets[5]}`,
  ];
  for (const target of targets) {
    const res = await fetch(`${server.url}${target}`, { headers: { authorization: 'Bearer acd_not_a_token' } });
    await res.arrayBuffer();
  }
  // The access log's line of the last request is written once its answer is sent.
  await server.waitFor(/auth\/callback/);
  const output = server.output();
  for (const secret of secrets) assert.ok(!output.includes(secret), `${secret} is in the log:\n${output}`);
  const logged = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; url?: string })
    .filter((line) => line.msg === 'request')
    .map((line) => line.url);
  assert.deepEqual(logged, [
    '/invitations/accept?token=[redacted]',
    '/invitations/accept?lang=en&TOKEN=[redacted]',
    '/invitations/accept?%74oken=[redacted]',
    '/api/v1/organization?token=[redacted]&per_page=2',
    '/auth/callback?code=[redacted]&state=[redacted]',
  ]);
});
