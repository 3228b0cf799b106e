import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { SearchGroup } from '../../src/modules/manifest.ts';
import { notificationsModule } from '../../src/modules/notifications/module.ts';
import { createSearchService } from '../../src/modules/search/service.ts';
import { usersModule } from '../../src/modules/users/module.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';

type GroupSearch = (query: { q: string; limit: number }) => Promise<{ total: number; items: Record<string, unknown>[] }>;

/** One group asked alone, as GET /search asks it among the others. */
function groupSearch(platform: Platform, group: SearchGroup): GroupSearch {
  const service = createSearchService(platform, [group]);
  return async (query) =>
    (await service.search(operatorContext(platform), query))[group.name] as { total: number; items: Record<string, unknown>[] };
}

describe('search groups users and notifications', () => {
  let platform: Platform;
  let make: Fixtures;
  let users: GroupSearch;
  let notifications: GroupSearch;

  before(async () => {
    platform = await createTestPlatform();
    make = fixtures(platform);
    users = groupSearch(platform, usersModule.search[0] as SearchGroup);
    notifications = groupSearch(platform, notificationsModule.search[0] as SearchGroup);
  });

  test('users: staff only, case-insensitive over the name or the email, each hit with its API path', async () => {
    const tag = unique('find').toLowerCase().replace(/-/g, '');
    const grace = await make.staff({ name: `Grace ${tag} Hopper`, email: `g.hopper.${tag}@navy.example.org` });
    const unal = await make.staff({ name: `Ünal Öztürk ${tag}`, email: `unal.${tag}@example.org`, status: 'draft' });
    await make.student({ name: `Student ${tag}`, email: `student.${tag}@example.org` });

    const all = await users({ q: tag.toUpperCase(), limit: 10 });
    assert.equal(all?.total, 2, 'never a student');
    assert.deepEqual(all?.items[0], {
      id: grace.id,
      type: 'user',
      title: grace.name,
      path: `/api/v1/users/${grace.id}`,
      email: grace.email,
      status: 'active',
    });
    assert.deepEqual(
      (await users({ q: `NAVY.EXAMPLE.ORG`, limit: 10 }))?.items.map((h) => h.id),
      [grace.id],
    );
    assert.deepEqual(
      (await users({ q: `öztürk ${tag}`, limit: 10 }))?.items.map((h) => h.id),
      [unal.id],
    );
    assert.deepEqual((await users({ q: `g_hopper`, limit: 10 }))?.items, [], '_ is not a wildcard');
    const capped = await users({ q: tag, limit: 1 });
    assert.deepEqual([capped?.total, capped?.items.length], [2, 1], 'the total of every match, at most limit hits');
  });

  test('notifications: case-insensitive over the recipient or the subject, each hit with its API path', async () => {
    const tag = unique('mail').toLowerCase().replace(/-/g, '');
    const user = await make.staff({ email: `ada.${tag}@example.org` });
    const row = await make.notification({
      user_id: user.id,
      recipient: user.email,
      subject: `Your ${tag} Academy account has been suspended`,
    });

    for (const q of [`ADA.${tag.toUpperCase()}`, `${tag} ACADEMY ACCOUNT`, 'SUSPENDED']) {
      const found = await notifications({ q, limit: 10 });
      assert.ok(
        found?.items.some((hit) => hit.id === row.id),
        q,
      );
    }
    const [hit] = (await notifications({ q: `ada.${tag}`, limit: 10 }))?.items ?? [];
    assert.deepEqual(hit, {
      id: row.id,
      type: 'notification',
      title: row.subject,
      path: `/api/v1/notifications/${row.id}`,
      recipient: user.email,
      notification_type: 'suspension',
      status: 'sent',
    });
    assert.equal((await notifications({ q: `${tag}%`, limit: 10 }))?.total, 0, '% is not a wildcard');
  });
});
