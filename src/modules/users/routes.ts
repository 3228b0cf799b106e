import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ifMatch } from '../../http/preconditions.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import type { UserMove } from './lifecycle.ts';
import { User, UserCreate, UserListQuery, UserPatch } from './schemas.ts';
import type { UserService } from './service.ts';

const NOT_STAFF = 'A student’s id is the same 404 as a missing one: this area holds staff users only.';

/** The lifecycle actions: path, the move, and what the documentation says of it. */
const ACTIONS: { path: string; move: Exclude<UserMove, 'activate'>; operationId: string; summary: string; description: string }[] = [
  {
    path: 'invite',
    move: 'invite',
    operationId: 'inviteUser',
    summary: 'Invite a draft user',
    description:
      '`draft` → `invited`. Queues one `invitation` notification: an email with a single-use acceptance link that expires. ' +
      'Accepting it (outside this API) makes the user `active`.',
  },
  {
    path: 'suspend',
    move: 'suspend',
    operationId: 'suspendUser',
    summary: 'Suspend an active user',
    description: '`active` → `suspended`. Queues one `suspension` notification.',
  },
  {
    path: 'reactivate',
    move: 'reactivate',
    operationId: 'reactivateUser',
    summary: 'Reactivate a suspended user',
    description: '`suspended` → `active`. Queues one `reactivation` notification.',
  },
  {
    path: 'archive',
    move: 'archive',
    operationId: 'archiveUser',
    summary: 'Archive a user',
    description:
      'From every state but `archived` → `archived`, which is final; an open invitation link stops working. Queues one `archival` notification.',
  },
];

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserService; maxPageSize: number }> = async (app, { users, maxPageSize }) => {
  app.addSchema(User);
  app.addSchema(UserCreate);
  app.addSchema(UserPatch);
  const user = Ref(User);
  const error = Ref(ErrorBody);
  const params = Type.Object({ user: IdParam });

  app.get('/users', {
    config: { access: { scope: 'users:read' } },
    schema: {
      operationId: 'listUsers',
      tags: ['Users'],
      summary: 'List staff users',
      description: 'Administrators and staff, never students. Ordered by id unless `sort` says otherwise. An unknown `status` is a 422.',
      querystring: UserListQuery,
      response: { 200: ListOf(user), 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      return sendList(request, reply, list, await users.list(request.ctx, { status: request.query.status }, list));
    },
  });

  app.post('/users', {
    config: { access: { scope: 'users:write' }, location: true },
    schema: {
      operationId: 'createUser',
      tags: ['Users'],
      summary: 'Create a staff user',
      description:
        'Creates the user in `draft` and sends nothing; `POST /users/{user}/invite` sends the invitation. An email that any user ' +
        '(staff or student) has already, in any letter case or Unicode form, is a 422 on `email`. Permissions and the status ' +
        'cannot be set here. ' +
        'Answers 201 with the user and its `Location`.',
      body: Ref(UserCreate),
      response: { 201: Single(user), 422: error },
    },
    handler: async (request, reply) => {
      const data = await users.create(request.ctx, request.body);
      return reply.code(201).header('location', `/api/v1/users/${data.id}`).send({ data });
    },
  });

  app.get('/users/:user', {
    config: { access: { scope: 'users:read' } },
    schema: {
      operationId: 'getUser',
      tags: ['Users'],
      summary: 'Get a staff user',
      description: NOT_STAFF,
      params,
      response: { 200: Single(user), 404: error },
    },
    handler: async (request) => ({ data: await users.get(request.ctx, request.params.user) }),
  });

  app.patch('/users/:user', {
    config: { access: { scope: 'users:write' } },
    schema: {
      operationId: 'updateUser',
      tags: ['Users'],
      summary: 'Update a staff user',
      description:
        'Partial update of `name`, `email` and `job_title`: only the fields present change; `job_title: null` clears it. The status ' +
        'moves only through the lifecycle actions and permissions only through the administration: either field is a 422. ' +
        'A new email ends the user’s open invitation: a link already sent (to the old address) no longer works. ' +
        NOT_STAFF,
      params,
      body: Ref(UserPatch),
      response: { 200: Single(user), 404: error, 422: error },
    },
    handler: async (request, reply) => ({
      data: await users.update(request.ctx, request.params.user, request.body, ifMatch(request, reply)),
    }),
  });

  for (const action of ACTIONS) {
    app.post(`/users/:user/${action.path}`, {
      config: { access: { scope: 'users:write' }, errors: { 409: ['invalid_transition'] } },
      schema: {
        operationId: action.operationId,
        tags: ['Users'],
        summary: action.summary,
        description:
          `${action.description} The move is made at once and the user is returned in its new state (200); the email is sent ` +
          'in the background (see `GET /notifications`). A move that the current state does not allow is a 409 ' +
          `\`invalid_transition\` and queues nothing. ${NOT_STAFF}`,
        params,
        response: { 200: Single(user), 404: error, 409: error },
      },
      handler: async (request) => ({ data: await users[action.move](request.ctx, request.params.user) }),
    });
  }
};
