import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Value } from 'typebox/value';
import { seedDemo } from '../../src/modules/demo/seed.ts';
import { WEBHOOK_EVENTS, webhookEnvelope } from '../../src/modules/webhooks/events.ts';
import { toDomainEvent } from '../../src/platform/events/outbox.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/platform/events/types.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createTestAssembly } from '../support/platform.ts';

/**
 * The payload schemas of the OpenAPI `webhooks` section against the events the modules really write:
 * the demo academy is loaded through the services, so its outbox holds real events of most types.
 */
describe('documented webhook payloads', () => {
  let platform: Platform;

  before(async () => {
    const assembly = await createTestAssembly();
    platform = assembly.platform;
    await seedDemo(platform, assembly.services);
  });

  test('every event the demo academy wrote matches the documented envelope and payload of its type', async () => {
    const checked: string[] = [];
    for (const type of WEBHOOK_EVENT_TYPES) {
      const schema = webhookEnvelope(type, WEBHOOK_EVENTS[type].payload);
      const rows = await platform.events.listByType(type);
      for (const row of rows) {
        const event = toDomainEvent(row);
        const problems = [...Value.Errors(schema, event)].map((e) => `${e.instancePath} ${e.message}`);
        assert.deepEqual(problems, [], `${type} ${JSON.stringify(event.payload)}`);
      }
      if (rows.length) checked.push(type);
    }
    for (const type of [
      'enrollment.created',
      'enrollment.completed',
      'certificate.issued',
      'course.published',
      'course_intake.completed',
    ]) {
      assert.ok(checked.includes(type), `the demo wrote no ${type} event to check`);
    }
  });

  test('an event that differs from its documented payload is refused (the check can fail)', async () => {
    const [row] = await platform.events.listByType('enrollment.created');
    assert.ok(row);
    const event = toDomainEvent(row);
    const schema = webhookEnvelope('enrollment.created', WEBHOOK_EVENTS['enrollment.created'].payload);
    assert.equal(Value.Check(schema, event), true);
    assert.equal(Value.Check(schema, { ...event, payload: { ...event.payload, status: 'cancelled' } }), false);
    assert.equal(Value.Check(schema, { ...event, type: 'course.published' }), false);
    const { enrolment_id: _, ...withoutId } = event.payload;
    assert.equal(Value.Check(schema, { ...event, payload: withoutId }), false);
  });
});
