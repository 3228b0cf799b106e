import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildServices } from '../../src/assembly/modules.ts';
import type { AcademyModule } from '../../src/modules/manifest.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// A process builds each service once (src/assembly/modules.ts): its routes, jobs, tasks and commands are
// handed that one instance, so what a service keeps (a cache, kept answers, counters) is kept once.
describe('one set of services per process', () => {
  let app: TestApp;

  before(async () => {
    app = await createTestApp();
  });

  test("the routes serve with the assembly's services: what the route keeps is what the process's service keeps", async () => {
    const token = await app.token(['search:read', 'courses:read']);
    const before = app.services.search.stats.searched;
    const res = await app.http.inject({ method: 'GET', url: '/api/v1/search?q=one-set-of-services', headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(app.services.search.stats.searched, before + 1, 'the search the route ran counts in the assembled service');
  });

  test('a service is built at its first use and then kept, and reads the services it needs as it is built', () => {
    assert.equal(app.services.courses, app.services.courses);
    let built = 0;
    const counter = { name: 'counter', services: { counter: () => ({ built: ++built }) } };
    const reader = {
      name: 'reader',
      services: { reader: ({ services }: { services: Record<string, unknown> }) => ({ counter: services.counter }) },
    };
    // The reader comes first in module order and needs a service of a later module.
    const services = buildServices(app.platform, [reader, counter] as unknown as AcademyModule[]) as unknown as Record<string, unknown>;
    assert.equal(built, 0, 'nothing is built before it is used');
    assert.deepEqual(services.reader, { counter: { built: 1 } });
    assert.equal(services.counter, (services.reader as { counter: unknown }).counter);
    assert.equal(built, 1);
  });

  test('services that need each other fail at their first use, naming the cycle', () => {
    const a = { name: 'a', services: { a: ({ services }: { services: Record<string, unknown> }) => ({ b: services.b }) } };
    const b = { name: 'b', services: { b: ({ services }: { services: Record<string, unknown> }) => ({ a: services.a }) } };
    const services = buildServices(app.platform as Platform, [a, b] as unknown as AcademyModule[]) as unknown as Record<string, unknown>;
    assert.throws(() => services.a, /a → b → a/);
  });

  test('two modules building a service of the same name are refused', () => {
    const one = { name: 'one', services: { same: () => ({}) } };
    const two = { name: 'two', services: { same: () => ({}) } };
    assert.throws(() => buildServices(app.platform, [one, two] as unknown as AcademyModule[]), /same/);
  });
});
