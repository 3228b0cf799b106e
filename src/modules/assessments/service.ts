import type { ListRequest, Page } from '../../db/list.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { sessionInCourse } from '../sessions/lookup.ts';
import type { SessionRepository } from '../sessions/repository.ts';
import type { AssessmentRepository, AssessmentRow } from './repository.ts';
import type { Assessment, AssessmentCreate, AssessmentKind, AssessmentSort } from './schemas.ts';

export function presentAssessment(row: AssessmentRow): Assessment {
  return {
    id: row.id,
    session_id: row.session_id,
    title: row.title,
    kind: row.kind as AssessmentKind,
    due_at: row.due_at,
    max_score: row.max_score,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createAssessmentService(deps: { assessments: AssessmentRepository; sessions: SessionRepository }) {
  /** The session `id` of the course `slug`; a session of another course is the same 404 as a missing one. */
  return {
    async list(_ctx: ServiceContext, slug: string, sessionId: number, list: ListRequest<AssessmentSort>): Promise<Page<Assessment>> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      const { items, total } = await deps.assessments.list(sessionId, list);
      return { items: items.map(presentAssessment), total };
    },

    async listAll(_ctx: ServiceContext, sessionId: number | undefined, list: ListRequest<AssessmentSort>): Promise<Page<Assessment>> {
      const { items, total } = await deps.assessments.list(sessionId, list);
      return { items: items.map(presentAssessment), total };
    },

    async get(_ctx: ServiceContext, slug: string, sessionId: number, id: number): Promise<Assessment> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      const row = await deps.assessments.find(sessionId, id);
      if (!row) throw new NotFoundError();
      return presentAssessment(row);
    },

    /** Adds an assessment to a session (`academy admin assessments create`); the session must exist (422). */
    async create(ctx: ServiceContext, input: AssessmentCreate): Promise<Assessment> {
      requirePermission(ctx, 'catalogue.manage');
      if (!(await deps.sessions.findById(input.session_id))) {
        throw new ValidationError({
          session_id: [`The session_id field must be the id of a training session; none has the id ${input.session_id}.`],
        });
      }
      const now = ctx.clock.now().toISOString();
      const row = await deps.assessments.insert(
        {
          session_id: input.session_id,
          title: input.title.trim(),
          kind: input.kind ?? 'assignment',
          due_at: input.due_at ? new Date(input.due_at).toISOString() : null,
          max_score: input.max_score ?? null,
          created_at: now,
          updated_at: now,
        },
        (trx, created) =>
          audit.record(trx, ctx, {
            action: 'assessment.created',
            subject: { type: 'assessment', id: created.id },
            changes: audit.changes(null, presentAssessment(created)),
          }),
      );
      return presentAssessment(row);
    },
  };
}

export type AssessmentService = ReturnType<typeof createAssessmentService>;
