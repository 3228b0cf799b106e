import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { sessionInCourse } from '../sessions/lookup.ts';
import type { SessionRepository } from '../sessions/repository.ts';
import type { ResourceRepository, ResourceRow } from './repository.ts';
import type { LearningResource, ResourceCreate, ResourceSort, ResourceStatus, ResourceType } from './schemas.ts';

/** A learning resource is drafted, then published (once: a published resource stays published). */
export const resourceLifecycle = defineLifecycle<ResourceStatus, 'publish'>({
  table: 'learning_resources',
  moves: { publish: { from: ['draft'], to: 'published' } },
});

export function presentResource(row: ResourceRow): LearningResource {
  return {
    id: row.id,
    session_id: row.session_id,
    title: row.title,
    type: row.type as ResourceType,
    url: row.url,
    body: row.body,
    status: row.status as ResourceStatus,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createResourceService(deps: { db: Kysely<DB>; resources: ResourceRepository; sessions: SessionRepository }) {
  return {
    /** The published resources of a session (drafts are never shown through the API). */
    async list(_ctx: ServiceContext, slug: string, sessionId: number, list: ListRequest<ResourceSort>): Promise<Page<LearningResource>> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      const { items, total } = await deps.resources.list({ sessionId, status: 'published' }, list);
      return { items: items.map(presentResource), total };
    },

    /** Every resource, drafts included (the administration). */
    async listAll(_ctx: ServiceContext, sessionId: number | undefined, list: ListRequest<ResourceSort>): Promise<Page<LearningResource>> {
      const { items, total } = await deps.resources.list({ sessionId }, list);
      return { items: items.map(presentResource), total };
    },

    /** A published resource of the session; a draft is the same 404 as a missing id. */
    async get(_ctx: ServiceContext, slug: string, sessionId: number, id: number): Promise<LearningResource> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      const row = await deps.resources.find(id, { sessionId, status: 'published' });
      if (!row) throw new NotFoundError();
      return presentResource(row);
    },

    /**
     * Adds a resource to a session (`academy admin resources create`), in draft unless `status` says
     * published. A link or a file needs its url, a text its body (422).
     */
    async create(ctx: ServiceContext, input: ResourceCreate): Promise<LearningResource> {
      requirePermission(ctx, 'catalogue.manage');
      const { type } = input;
      const url = input.url ?? null;
      const body = input.body?.trim() ?? null;
      const status = input.status ?? 'draft';
      const errors: Record<string, string[]> = {};
      if ((type === 'link' || type === 'file') && !url) errors.url = [`The url field is required for a ${type} resource.`];
      if (type === 'text' && !body) errors.body = ['The body field is required for a text resource.'];
      if (!(await deps.sessions.findById(input.session_id))) {
        errors.session_id = [`The session_id field must be the id of a training session; none has the id ${input.session_id}.`];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const now = ctx.clock.now().toISOString();
      const row = await deps.resources.insert(
        {
          session_id: input.session_id,
          title: input.title.trim(),
          type,
          url,
          body,
          status,
          published_at: status === 'published' ? now : null,
          created_at: now,
          updated_at: now,
        },
        (trx, created) =>
          audit.record(trx, ctx, {
            action: 'learning_resource.created',
            subject: { type: 'learning_resource', id: created.id },
            changes: audit.changes(null, presentResource(created)),
          }),
      );
      return presentResource(row);
    },

    /** Publishes a draft resource (`academy admin resources publish`); a published one is a 409 `invalid_transition`. */
    async publish(ctx: ServiceContext, id: number): Promise<LearningResource> {
      requirePermission(ctx, 'catalogue.manage');
      const now = ctx.clock.now().toISOString();
      const published = await deps.db.transaction().execute(async (trx) => {
        await resourceLifecycle.apply(trx, id, 'publish', { set: { published_at: now, updated_at: now } });
        // Read in the transaction: a committed move always gets its answer.
        const published = (await deps.resources.find(id, {}, trx)) as ResourceRow;
        await audit.record(trx, ctx, {
          action: 'learning_resource.published',
          subject: { type: 'learning_resource', id },
          changes: { status: ['draft', 'published'], published_at: [null, now] },
        });
        return published;
      });
      return presentResource(published);
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
