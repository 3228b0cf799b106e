import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Platform } from '../../src/platform/platform.ts';
import { runCli } from '../support/cli.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';

describe('academy admin workflows', () => {
  let platform: Platform;
  let env: Record<string, string>;
  const admin = (...args: string[]) => runCli(['--json', 'admin', 'workflows', ...args], env);

  before(async () => {
    platform = await createTestPlatform();
    env = { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir };
  });

  test('create opens an instance in its initial state; list shows it; bad data is refused per field', async () => {
    const make = fixtures(platform);
    const course = await make.course({ status: 'review' });
    const reviewer = await make.staff({ permissions: JSON.stringify(['courses.approve']) });
    const created = await admin(
      'create',
      '--data',
      JSON.stringify({ workflow: 'course_approval', subject_type: 'course', subject_id: course.id, assignee_id: reviewer.id }),
    );
    assert.equal(created.code, 0, created.stderr);
    const instance = JSON.parse(created.stdout);
    assert.equal(instance.workflow, 'course_approval');
    assert.equal(instance.state, 'pending');
    assert.deepEqual([instance.subject_type, instance.subject_id], ['course', course.id]);
    assert.deepEqual(instance.assignee, { id: reviewer.id, name: reviewer.name });

    // The subject type defaults to the definition's.
    const document = JSON.parse((await admin('create', '--data', JSON.stringify({ workflow: 'document_approval', subject_id: 5 }))).stdout);
    assert.deepEqual([document.subject_type, document.subject_id, document.assignee], ['document', 5, null]);

    const suspended = await make.staff({ status: 'suspended' });
    const unknown = await admin('create', '--data', JSON.stringify({ workflow: 'payroll', subject_type: 'Course' }));
    assert.notEqual(unknown.code, 0);
    const { errors } = JSON.parse(unknown.stderr);
    assert.deepEqual(errors.workflow, ['The workflow field must be one of: course_approval, document_approval.']);
    assert.match(errors.subject_type?.[0], /^The subject_type field must be a lowercase word/);
    // Rules across fields and about the assignee are the service's, reported together.
    const bad = await admin(
      'create',
      '--data',
      JSON.stringify({ workflow: 'course_approval', subject_type: 'course', assignee_id: suspended.id }),
    );
    assert.notEqual(bad.code, 0);
    assert.deepEqual(JSON.parse(bad.stderr).errors, {
      subject_id: ['The subject_id field is required with a subject_type.'],
      assignee_id: ['The user is suspended; only an active user can be assigned.'],
    });

    const listed = await admin('list', '--workflow', 'course_approval');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((i: { id: number }) => i.id),
      [instance.id],
    );
  });
});
