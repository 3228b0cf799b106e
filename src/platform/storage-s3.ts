import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageSettings } from '../config.ts';
import { NotFoundError } from './errors.ts';
import { checkKey, meter, newKey, type Storage, s3Root } from './storage.ts';

type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

/** Parts of a streamed upload, and how many are sent at once: at most 4 × 8 MB held per upload. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

function missing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * The storage port over an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), for deployments with
 * several machines: every process reads and writes the same files. Uploads stream as multipart
 * uploads (never a whole file in memory) and are aborted on any failure, so a refused or cut-off
 * upload leaves no object. Keys are made here, never from client input, under ACADEMY_S3_PREFIX.
 */
export function createS3Storage(settings: S3Settings, client?: S3Client): Storage {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => {
    checkKey(key);
    return settings.prefix ? `${settings.prefix}/${key}` : key;
  };

  const storage: Storage = {
    root: s3Root(settings),

    async put(source, options = {}) {
      const key = newKey(options.prefix);
      const metered = meter(options.maxBytes ?? Number.POSITIVE_INFINITY);
      const body = new PassThrough();
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: objectKey(key), Body: body },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      const sent = upload.done();
      // A failed upload stops the stream feeding it, so the pipeline below fails instead of waiting.
      sent.catch((error) => body.destroy(error));
      try {
        await pipeline(source as Readable, metered.stream, body);
        await sent;
      } catch (error) {
        await upload.abort().catch(() => {});
        // A small file may have been sent in one request that completed before the failure was seen.
        await s3.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) })).catch(() => {});
        throw error;
      }
      return { key, ...metered.result() };
    },

    async get(key, range) {
      try {
        const answer = await s3.send(
          new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : Number(answer.ContentLength ?? 0);
        return { stream: answer.Body as Readable, size: total };
      } catch (error) {
        if (missing(error)) throw new NotFoundError();
        throw error;
      }
    },

    async exists(key) {
      try {
        await s3.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },

    async *list(area) {
      checkKey(area);
      const base = settings.prefix ? `${settings.prefix}/` : '';
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `${base}${area}/`, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          yield { key: object.Key.slice(base.length), size: object.Size ?? 0, modifiedMs: object.LastModified?.getTime() ?? 0 };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async delete(key) {
      if (!(await storage.exists(key))) return false;
      await s3.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      return true;
    },

    async usage() {
      const totals: Record<string, { files: number; bytes: number }> = {};
      const base = settings.prefix ? `${settings.prefix}/` : '';
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: base, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const area = (object.Key ?? '').slice(base.length).split('/')[0] as string;
          totals[area] ??= { files: 0, bytes: 0 };
          const total = totals[area];
          total.files += 1;
          total.bytes += object.Size ?? 0;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return totals;
    },

    async probe() {
      const key = objectKey(`probe/${randomBytes(8).toString('hex')}`);
      const content = randomBytes(32);
      try {
        await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: content }));
        const back = await s3.send(new GetObjectCommand({ Bucket, Key: key }));
        const bytes = Buffer.from(await (back.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
        if (!bytes.equals(content)) throw new Error('the probe object read back differs from what was written');
      } finally {
        await s3.send(new DeleteObjectCommand({ Bucket, Key: key })).catch(() => {});
      }
    },

    // An upload is never visible before it completes; the parts of one cut off by a killed process
    // are the bucket's to expire (a lifecycle rule aborting incomplete multipart uploads).
    async sweepPartials() {
      return { files: 0, bytes: 0 };
    },
  };
  return storage;
}
