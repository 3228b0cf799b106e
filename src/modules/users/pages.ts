import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { NotFoundError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { UserService } from './service.ts';

/**
 * The page an invitation email links to (the default ACADEMY_INVITE_URL): opening the link shows
 * whom it is for and a button; only pressing it (a POST) accepts the invitation. Mail scanners and
 * link previews open links, so a GET must never use the token up.
 */

// The token is in the URL: no Referer may carry it elsewhere, no cache may keep the page, no other
// site may frame it.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .headers(HEADERS)
    .send(
      [
        '<!doctype html>',
        '<html lang="en">',
        `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
        '<body style="font-family:Arial,Helvetica,sans-serif;max-width:480px;margin:48px auto;padding:0 16px;line-height:1.5">',
        `<h1 style="font-size:22px">${escapeHtml(title)}</h1>`,
        body,
        '</body>',
        '</html>',
      ].join('\n'),
    );
}

const INVALID =
  '<p>This invitation link does not work any more: it was used already, has expired or was replaced by a newer one. Ask for a new invitation.</p>';

export function invitationPages(deps: { users: UserService; organizationName: () => Promise<string> }): FastifyPluginAsync {
  const { users } = deps;
  return async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const schema = { hide: true };

    app.get<{ Querystring: { token?: string } }>('/invitations/accept', {
      config: { access: { public: 'public', counter: 'invitations' } },
      schema,
      handler: async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        try {
          const user = await users.invitation(request.ctx, token);
          const organization = await deps.organizationName();
          return page(
            reply,
            200,
            `Join ${organization}`,
            `<p>${escapeHtml(user.name)} (${escapeHtml(user.email)}), accept the invitation to activate your account at ${escapeHtml(organization)}.</p>` +
              '<form method="post" action="accept">' +
              `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
              '<button type="submit" style="background:#1f5fbf;color:#fff;border:0;padding:12px 20px;border-radius:4px;font-size:15px">Accept the invitation</button>' +
              '</form>',
          );
        } catch (error) {
          if (error instanceof NotFoundError) return page(reply, 404, 'Invitation not valid', INVALID);
          throw error;
        }
      },
    });

    app.post<{ Body: { token?: string } }>('/invitations/accept', {
      config: { access: { public: 'public', counter: 'invitations' } },
      schema,
      handler: async (request, reply) => {
        const token = typeof request.body?.token === 'string' ? request.body.token : '';
        try {
          const user = await users.acceptInvitation(request.ctx, token);
          const organization = await deps.organizationName();
          return page(
            reply,
            200,
            'Your account is active',
            `<p>Welcome, ${escapeHtml(user.name)}. Your account at ${escapeHtml(organization)} is active.</p>`,
          );
        } catch (error) {
          if (error instanceof NotFoundError) return page(reply, 404, 'Invitation not valid', INVALID);
          throw error;
        }
      },
    });
  };
}
