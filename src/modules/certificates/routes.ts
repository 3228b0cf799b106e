import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { POLICIES } from '../../platform/rate-limit.ts';
import { Certificate, CertificateListQuery, CertificateVerification } from './schemas.ts';
import type { CertificateService } from './service.ts';

export const certificateRoutes: FastifyPluginAsyncTypebox<{ certificates: CertificateService; maxPageSize: number }> = async (
  app,
  { certificates, maxPageSize },
) => {
  app.addSchema(Certificate);
  app.addSchema(CertificateVerification);
  const error = Ref(ErrorBody);

  app.get('/certificates', {
    config: { access: { scope: 'certificates:read' } },
    schema: {
      operationId: 'listCertificates',
      tags: ['Certificates'],
      summary: 'List certificates',
      description:
        'Ordered by id unless `sort` says otherwise. `course_id` matches the course of the session the holder ' +
        'completed. Certificates are issued and revoked by the administration, never through the API.',
      querystring: CertificateListQuery,
      response: { 200: ListOf(Ref(Certificate)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { studentId: request.query.student_id, courseId: request.query.course_id, status: request.query.status };
      return sendList(request, reply, list, await certificates.list(request.ctx, filter, list));
    },
  });

  // Registered before /certificates/:certificate for readability; the router prefers the static segment anyway.
  app.get('/certificates/verify/:certificate', {
    config: { access: { public: 'public' } },
    schema: {
      operationId: 'verifyCertificate',
      tags: ['Certificates'],
      summary: 'Verify a certificate (public)',
      description:
        'Needs no credentials. Resolves only by the certificate’s `verification_token`, never by its number or id, ' +
        'and returns public facts only: the holder’s name, the course title, the date of issue and whether the ' +
        'certificate is `valid` or `revoked` (with `revoked_at`), so that a verifier can tell a revoked certificate ' +
        'from a mistyped token. Every token that matches no certificate gets the same 404 body, with no reason. ' +
        `Rate limit: ${POLICIES.public.limit} requests per ${POLICIES.public.windowSeconds} seconds per client address (policy \`public\`).`,
      params: Type.Object({ certificate: Type.String({ description: 'The verification token.' }) }),
      response: { 200: Single(Ref(CertificateVerification)), 404: error },
    },
    handler: async (request) => ({ data: await certificates.verify(request.ctx, request.params.certificate) }),
  });

  app.get('/certificates/:certificate', {
    config: { access: { scope: 'certificates:read' } },
    schema: {
      operationId: 'getCertificate',
      tags: ['Certificates'],
      summary: 'Get a certificate',
      params: Type.Object({ certificate: IdParam }),
      response: { 200: Single(Ref(Certificate)), 404: error },
    },
    handler: async (request) => ({ data: await certificates.get(request.ctx, request.params.certificate) }),
  });
};
