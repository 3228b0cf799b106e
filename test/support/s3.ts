import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  /** The configuration that points Academy's storage at the bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver, on loopback, files in a temporary directory) with one empty bucket. */
export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'academy-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = 'academy-test-files';
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    env: {
      ACADEMY_STORAGE: 's3',
      ACADEMY_S3_BUCKET: bucket,
      ACADEMY_S3_ENDPOINT: endpoint,
      ACADEMY_S3_ACCESS_KEY_ID: 'S3RVER',
      ACADEMY_S3_SECRET_ACCESS_KEY: 'S3RVER',
      ACADEMY_S3_PREFIX: 'academy',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
