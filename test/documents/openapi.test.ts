import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDocument } from '../../scripts/openapi.ts';
import { DEFAULT_DOCUMENT_TYPES } from '../../src/modules/documents/types.ts';

test('the OpenAPI document gives a document download the media types of the files, not JSON', async () => {
  const document = (await generateDocument()) as Record<string, any>;
  const download = document.paths['/api/v1/documents/{document}/download'].get;
  const mediaTypes = [...new Set(Object.values(DEFAULT_DOCUMENT_TYPES).flatMap((rule) => rule.mediaTypes))].sort();
  for (const status of ['200', '206']) {
    const content = download.responses[status].content as Record<string, { schema: { type: string; format?: string } }>;
    assert.deepEqual(Object.keys(content).sort(), mediaTypes, `the ${status} lists the media types a document may have`);
    for (const [type, media] of Object.entries(content)) {
      assert.deepEqual(media.schema, { type: 'string', format: 'binary' }, `${status} ${type} is the file's bytes`);
    }
  }
});
