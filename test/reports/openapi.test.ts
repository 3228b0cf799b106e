import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDocument } from '../../scripts/openapi.ts';

test('the OpenAPI document gives a report download the media types of its formats, not JSON', async () => {
  const document = (await generateDocument()) as Record<string, any>;
  const download = document.paths['/api/v1/reports/{report}/download'].get;
  const content = download.responses['200'].content as Record<string, { schema: { type: string; format?: string } }>;
  assert.deepEqual(Object.keys(content).sort(), ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv']);
  for (const [type, media] of Object.entries(content)) {
    assert.deepEqual(media.schema, { type: 'string', format: 'binary' }, `${type} is the file's bytes`);
  }
  assert.ok(download.responses['304'], 'a download whose ETag the client holds is still documented as a 304');
});
