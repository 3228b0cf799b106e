import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type ListRequest, mapPage, type Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { defineLifecycle, type EventSink } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { CertificateFilter, CertificateRepository, CertificateRow } from './repository.ts';
import type {
  Certificate,
  CertificateIssue,
  CertificateRevoke,
  CertificateSort,
  CertificateStatus,
  CertificateVerification,
} from './schemas.ts';

/** 24 random bytes: 192 bits, 32 URL-safe characters (base64url). */
const TOKEN_BYTES = 24;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

export function newVerificationToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** `CERT-2026-000123`: the year of issue and the certificate's id, which the database makes unique. */
export function certificateNumber(id: number, issuedAt: string): string {
  return `CERT-${issuedAt.slice(0, 4)}-${String(id).padStart(6, '0')}`;
}

export const certificateLifecycle = defineLifecycle<CertificateStatus, 'revoke'>({
  table: 'certificates',
  moves: { revoke: { from: ['valid'], to: 'revoked' } },
  refuse: () => new ConflictError('invalid_transition', 'The certificate is revoked already; revocation is final.'),
});

export function presentCertificate(row: CertificateRow): Certificate {
  return {
    id: row.id,
    certificate_number: row.certificate_number,
    verification_token: row.verification_token,
    status: row.status as CertificateStatus,
    student_id: row.user_id,
    course_id: row.course_id,
    course: row.course,
    session_id: row.session_id,
    enrolment_id: row.enrolment_id,
    issued_at: row.issued_at,
    revoked_at: row.revoked_at,
    revocation_reason: row.revocation_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createCertificateService(deps: { db: Kysely<DB>; certificates: CertificateRepository; outbox: EventSink }) {
  const { db, certificates } = deps;

  async function find(id: number, executor: Kysely<DB> = db): Promise<CertificateRow> {
    const row = await certificates.findById(id, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    async list(_ctx: ServiceContext, filter: CertificateFilter, list: ListRequest<CertificateSort>): Promise<Page<Certificate>> {
      const page = await certificates.list(filter, list);
      return mapPage(page, presentCertificate);
    },

    async get(_ctx: ServiceContext, id: number): Promise<Certificate> {
      return presentCertificate(await find(id));
    },

    /**
     * Public verification, by the verification token only. Every token that matches nothing (altered,
     * mistyped, a certificate number, random text) ends in the same NotFoundError.
     *
     * Timing: the token is looked up through the unique index of its column. A B-tree walk compares
     * keys byte by byte, so in theory its duration depends on how long a prefix of the presented token
     * some stored token shares; but tokens are 192 uniformly random bits, a shared prefix reveals
     * nothing about any other byte, the difference is nanoseconds under milliseconds of network
     * jitter, and the route allows 30 attempts a minute per address, so no prefix can be learned and
     * extended in practice. The final comparison is constant-time, so a match is decided by the exact
     * bytes and never by a database collation. A malformed token is refused before the lookup: that
     * only reveals the token format, which is public.
     */
    async verify(_ctx: ServiceContext, token: string): Promise<CertificateVerification> {
      if (!TOKEN_SHAPE.test(token)) throw new NotFoundError();
      const row = await certificates.findForVerification(token);
      const presented = Buffer.from(token);
      const stored = Buffer.from(row?.verification_token ?? '');
      if (!row || stored.length !== presented.length || !timingSafeEqual(stored, presented)) throw new NotFoundError();
      return {
        holder_name: row.holder_name,
        course_title: row.course_title,
        issued_on: row.issued_at.slice(0, 10),
        status: row.status as CertificateStatus,
        revoked_at: row.revoked_at,
      };
    },

    /**
     * Issues the certificate of a confirmed enrolment completed as `passed`
     * (`academy admin certificates issue`), with its `certificate.issued` event in the same transaction.
     */
    async issue(ctx: ServiceContext, input: CertificateIssue): Promise<Certificate> {
      requirePermission(ctx, 'certificates.manage');
      const id = input.enrolment_id;

      const alreadyIssued = (existing: { id: number; certificate_number: string }) =>
        new ConflictError('conflict', `Enrolment ${id} already has certificate ${existing.certificate_number} (id ${existing.id}).`);

      try {
        return await db.transaction().execute(async (trx) => {
          const enrolment = await certificates.findEnrolment(trx, id);
          if (!enrolment) throw ValidationError.field('enrolment_id', `No enrolment has the id ${id}.`);
          if (enrolment.status !== 'confirmed') {
            throw new ConflictError('conflict', `Enrolment ${id} is ${enrolment.status}; only a confirmed enrolment earns a certificate.`);
          }
          if (enrolment.completion_outcome !== 'passed') {
            const outcome = enrolment.completion_outcome ? `completed as ${enrolment.completion_outcome}` : 'not completed yet';
            throw new ConflictError('conflict', `Enrolment ${id} is ${outcome}; a certificate needs a completion recorded as passed.`);
          }
          const existing = await certificates.findByEnrolment(trx, id);
          if (existing) throw alreadyIssued(existing);

          const issuedAt = ctx.clock.now().toISOString();
          // The number comes from the id the insert receives, so concurrent issues never share one;
          // the placeholder only lives inside this transaction.
          const certificateId = await certificates.insert(trx, {
            enrolment_id: id,
            user_id: enrolment.user_id,
            course_id: enrolment.course_id,
            session_id: enrolment.session_id,
            certificate_number: `pending-${randomUUID()}`,
            verification_token: newVerificationToken(),
            issued_at: issuedAt,
          });
          await certificates.setNumber(trx, certificateId, certificateNumber(certificateId, issuedAt));
          const certificate = presentCertificate(await find(certificateId, trx));
          await deps.outbox.emit(trx, 'certificate.issued', {
            certificate_id: certificate.id,
            certificate_number: certificate.certificate_number,
            student_id: certificate.student_id,
            course_id: certificate.course_id,
            course: certificate.course,
            session_id: certificate.session_id,
            enrolment_id: certificate.enrolment_id,
            issued_at: certificate.issued_at,
          });
          await audit.record(trx, ctx, {
            action: 'certificate.issued',
            subject: { type: 'certificate', id: certificate.id },
            changes: audit.changes(null, certificate),
          });
          ctx.logger.info({ certificateId, enrolmentId: id }, 'certificate issued');
          return certificate;
        });
      } catch (error) {
        // Another issue for the same enrolment committed first: its unique index refused this insert.
        const existing = await certificates.findByEnrolment(db, id);
        if (existing && !(error instanceof ConflictError)) throw alreadyIssued(existing);
        throw error;
      }
    },

    /** Revokes a valid certificate (`academy admin certificates revoke`); verification then says `revoked`. */
    async revoke(ctx: ServiceContext, id: number, input: CertificateRevoke = {}): Promise<Certificate> {
      requirePermission(ctx, 'certificates.manage');
      const now = ctx.clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        await certificateLifecycle.apply(trx, id, 'revoke', {
          set: { revoked_at: now, revocation_reason: input.reason?.trim() ?? null, updated_at: now },
        });
        const revoked = presentCertificate(await find(id, trx));
        await audit.record(trx, ctx, {
          action: 'certificate.revoked',
          subject: { type: 'certificate', id },
          changes: {
            status: ['valid', 'revoked'],
            revoked_at: [null, revoked.revoked_at],
            revocation_reason: [null, revoked.revocation_reason],
          },
        });
        ctx.logger.info({ certificateId: id }, 'certificate revoked');
        return revoked;
      });
    },
  };
}

export type CertificateService = ReturnType<typeof createCertificateService>;
