/**
 * The Academy API v1 as TypeScript types: generated from openapi/openapi.json by openapi-typescript
 * (`npm run client`). Do not edit; CI checks that it matches the document (`npm run client:check`).
 */

export interface paths {
    "/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API versions with their lifecycle status
         * @description Every API version with its status (`active`, `deprecated`, `sunset`), release, deprecation and sunset dates and documentation. Public: no token, no rate limit. Like every route, an HTTP/1.1 request without `Host` is a 400.
         */
        get: operations["listApiVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit events
         * @description The audit trail: one event per change, from the API, the console, the `academy` command line or a background job, written in the same transaction as the change (a change that was rolled back has none). Each names who acted, through what, for which request and address, and what changed field by field; secrets are never shown. Newest first: the default order is `id` descending (unlike other lists, which go oldest first), and every order breaks ties by id. Events are kept for the deployment’s retention (400 days unless configured), then deleted. A token that acts for a user needs that user to hold the `audit.read` permission (403 `permission_denied` otherwise). An addition to v1: clients that do not call it are not affected.
         *
         *     Scope: `audit:read`.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/certificates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List certificates
         * @description Ordered by id unless `sort` says otherwise. `course_id` matches the course of the session the holder completed. Certificates are issued and revoked by the administration, never through the API.
         *
         *     Scope: `certificates:read`.
         */
        get: operations["listCertificates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/certificates/verify/{certificate}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a certificate (public)
         * @description Needs no credentials. Resolves only by the certificate’s `verification_token`, never by its number or id, and returns public facts only: the holder’s name, the course title, the date of issue and whether the certificate is `valid` or `revoked` (with `revoked_at`), so that a verifier can tell a revoked certificate from a mistyped token. Every token that matches no certificate gets the same 404 body, with no reason. Rate limit: 30 requests per 60 seconds per client address (policy `public`).
         */
        get: operations["verifyCertificate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/certificates/{certificate}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a certificate
         * @description Scope: `certificates:read`.
         */
        get: operations["getCertificate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List courses (the training catalogue)
         * @description Every course in every publication state, ordered by id unless `sort` says otherwise. `active=1|true` keeps the published courses, `active=0|false` those in every other state. `sort=price` orders by the amount in minor units.
         *
         *     Scope: `courses:read`.
         */
        get: operations["listCourses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a course by its slug
         * @description An unknown slug and a malformed one are the same 404.
         *
         *     Scope: `courses:read`.
         */
        get: operations["getCourse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a course's training sessions (intakes)
         * @description Ordered by id unless `sort` says otherwise. An unknown or malformed course slug is a 404.
         *
         *     Scope: `courses:read`.
         */
        get: operations["listCourseSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a training session of a course
         * @description A session of another course is the same 404 as a missing one.
         *
         *     Scope: `courses:read`.
         */
        get: operations["getCourseSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/assessments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a session's assessments
         * @description Ordered by id unless `sort` says otherwise. A session of another course is a 404.
         *
         *     Scope: `courses:read`.
         */
        get: operations["listSessionAssessments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/assessments/{assessment}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an assessment of a session
         * @description An assessment of another session, or a session of another course, is the same 404 as a missing id.
         *
         *     Scope: `courses:read`.
         */
        get: operations["getSessionAssessment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/meetings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a session's meetings (class days)
         * @description Ordered by id unless `sort` says otherwise (`held_on` orders by day). A session of another course is a 404.
         *
         *     Scope: `courses:read`.
         */
        get: operations["listSessionMeetings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/meetings/{meeting}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a meeting of a session
         * @description A meeting of another session, or a session of another course, is the same 404 as a missing id.
         *
         *     Scope: `courses:read`.
         */
        get: operations["getSessionMeeting"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a session's published learning resources
         * @description Only published resources; drafts are never listed. Ordered by id unless `sort` says otherwise.
         *
         *     Scope: `courses:read`.
         */
        get: operations["listSessionResources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{course}/sessions/{session}/resources/{resource}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a published learning resource of a session
         * @description A draft resource is the same 404 as a missing id, so a client cannot tell that it exists.
         *
         *     Scope: `courses:read`.
         */
        get: operations["getSessionResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List documents
         * @description Every document, deleted ones included (with `status: deleted`), by id unless `sort` says otherwise. An unknown `type` or `status` is a 422.
         *
         *     Scope: `documents:read`.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Upload a document
         * @description A `multipart/form-data` body with the fields `type`, optional `title`, `student_id` and `supersedes_id`, and one `file` (send the fields before the file: then a refused file is refused as soon as its first bytes arrive). The file streams to storage with its size and SHA-256 recorded; its media type is read from its content (signature), never from the file name or the declared type. Answers 201 with the document in `stored` and its `Location`; a job checks the stored file and makes it `available`. With `supersedes_id` the upload is a new version: the prior version (same type) is archived in the same transaction. Only the current version takes a new version: one already superseded or archived is a 409 `conflict` (of concurrent new versions of one document, one wins), a deleted prior a 409 `invalid_transition`, another type a 422.
         *
         *     A file larger than its type allows is a 413 `payload_too_large`, content of a media type it does not accept a 415 `unsupported_media_type`, a missing or unknown field a 422; after any refusal, or an upload cut short, nothing is kept. With an `Idempotency-Key`, a repeat is replayed only when it sends the same fields and the same file (by its bytes, name and declared type; its multipart boundary and the order of its parts do not matter), which is read to tell; another upload under the key is a 422 `idempotency_key_reused`, and an upload that was refused leaves its key free. Defaults per type (a deployment may change them, ACADEMY_DOCUMENT_TYPES_FILE):
         *
         *     | type | largest file | media types |
         *     |---|---|---|
         *     | `profile_document` | 10 MB | `image/jpeg`, `image/png`, `image/webp`, `application/pdf` |
         *     | `employment_letter` | 10 MB | `application/pdf`, `application/vnd.openxmlformats-officedocument.wordprocessingml.document` |
         *     | `character_reference` | 10 MB | `application/pdf`, `application/vnd.openxmlformats-officedocument.wordprocessingml.document` |
         *     | `training_certificate` | 20 MB | `application/pdf`, `image/jpeg`, `image/png` |
         *     | `course_document` | 512 MB | `application/pdf`, `application/vnd.openxmlformats-officedocument.wordprocessingml.document`, `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, `application/vnd.openxmlformats-officedocument.presentationml.presentation`, `application/zip`, `text/plain`, `text/csv`, `image/jpeg`, `image/png`, `video/mp4`, `application/octet-stream` |
         *     | `generated_report` | 512 MB | `text/csv`, `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` |
         *
         *     Scope: `documents:write`.
         */
        post: operations["uploadDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/{document}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a document
         * @description Its metadata, status and versions; the file itself is at `download_path`.
         *
         *     Scope: `documents:read`.
         */
        get: operations["getDocument"];
        put?: never;
        post?: never;
        /**
         * Delete a document
         * @description Soft and final: the document stays listed with `status: deleted` and its download becomes a 404; the stored file is not removed. Deleting a deleted document is a 409.
         *
         *     Scope: `documents:write`.
         */
        delete: operations["deleteDocument"];
        options?: never;
        head?: never;
        /**
         * Change a document’s metadata
         * @description Only the fields sent (`title`, `student_id`); the file never changes here — a new file is a new version (POST with `supersedes_id`). A deleted document is a 409.
         *
         *     Scope: `documents:write`.
         */
        patch: operations["updateDocument"];
        trace?: never;
    };
    "/api/v1/documents/{document}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a document
         * @description `stored` or `available` → `archived`; from any other state a 409 `invalid_transition`.
         *
         *     Scope: `documents:write`.
         */
        post: operations["archiveDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/documents/{document}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a document’s file
         * @description The file, streamed, with its media type, length, an `ETag` (from its SHA-256), `Content-Disposition: attachment` with the file name (RFC 6266, UTF-8 `filename*`) and `X-Content-Type-Options: nosniff`. `Range: bytes=…` (one range; the unit in any case) gets a 206 with `Content-Range`, an unsatisfiable one a 416; `If-Range` and `If-None-Match` are honoured. A deleted document is a 404.
         *
         *     Scope: `documents:read`.
         */
        get: operations["downloadDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/enrolments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List enrolments
         * @description Ordered by id unless `sort` says otherwise. `course_id` matches the course of the enrolment’s session. Enrolments are created, cancelled and completed in the administration; the API only reads them.
         *
         *     Scope: `enrolments:read`.
         */
        get: operations["listEnrolments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/enrolments/{enrolment}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an enrolment
         * @description Scope: `enrolments:read`.
         */
        get: operations["getEnrolment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run every enabled health check
         * @description Runs every enabled check that applies to this deployment concurrently, each under its own timeout (a check that times out is `fail`). The overall `status` is the worst of the checks. The response is 200 for `pass` and `warn`, 503 (with the same body) for `fail`. The Redis check is left out when no Redis is configured. While the database cannot be reached, the `database` check fails; a 503 with the error `unavailable` means the token itself could not be checked.
         *
         *     Scope: `health:read`.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/{check}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run one health check
         * @description Runs one enabled check by name. 200 for `pass` and `warn`, 503 (with the same body) for `fail`; 404 for a name that is unknown, disabled or does not apply to this deployment. While the database cannot be reached, the `database` check fails and the others answer the error `unavailable` (their configuration is in the database).
         *
         *     Scope: `health:read`.
         */
        get: operations["getHealthCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List integration messages
         * @description Messages sent to outbound integrations, one per subscribed event and integration, in id order (the order they were made in) unless `sort`/`direction` say otherwise: `?direction=desc` lists the newest first. An unknown `status` is a 422.
         *
         *     Scope: `integration-messages:read`.
         */
        get: operations["listIntegrationMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{message}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an integration message
         * @description Scope: `integration-messages:read`.
         */
        get: operations["getIntegrationMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrations/{message}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed integration message
         * @description Queues a `failed` message again for a new series of delivery attempts and answers 202 with the message (status `queued`). A message in any other status, or one whose integration is disabled, is a 409 `not_retryable`.
         *
         *     Scope: `integration-messages:write`.
         */
        post: operations["retryIntegrationMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List identity notifications
         * @description The emails of the staff lifecycle: exactly one per move (invite, activation, suspend, reactivate, archive), queued in the same transaction as the move and delivered in the background, with retries. Ordered by id unless `sort` says otherwise. An unknown `type` or `status` is a 422.
         *
         *     Scope: `identity-notifications:read`.
         */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{notification}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an identity notification
         * @description Its delivery status, attempts and last error. The email’s body (and an invitation’s link) is never shown.
         *
         *     Scope: `identity-notifications:read`.
         */
        get: operations["getNotification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the organization settings
         * @description Scope: `organization:read`.
         */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the organization settings
         * @description Partial update: only the fields present in the body change, including single fields of `address`. `null` clears an optional field.
         *
         *     Scope: `organization:write`.
         */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/v1/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List reports
         * @description Every report requested, by id unless `sort` says otherwise. An unknown `type` or `status` is a 422.
         *
         *     Scope: `reports:read`.
         */
        get: operations["listReports"];
        put?: never;
        /**
         * Request a report
         * @description Always asynchronous: answers 202 with the report in `requested` and its `Location`; a background job generates it, streaming rows from the database to the file, with `progress` and `row_count` visible while you poll `GET /reports/{report}`, through `generating → generated → stored → available` (or `failed`, with `failure_reason`). `export.completed` is sent to webhooks when it is available. A parameter the type does not take is a 422.
         *
         *     | type | rows | parameters | kept for |
         *     |---|---|---|---|
         *     | `enrolments` | Every enrolment with its student, course, session, status, waitlist position and dates. | `course_id`, `session_id`, `status`, `from`, `to` | 7 days |
         *     | `completions` | Completed enrolments with their outcome and when it was recorded. | `course_id`, `session_id`, `from`, `to` | 30 days |
         *     | `certificates_issued` | Certificates with their number, holder, course and status (revoked ones included). | `course_id`, `from`, `to` | 30 days |
         *     | `attendance` | Meetings with their session, day, times, status, and the session’s confirmed participants. | `course_id`, `session_id`, `from`, `to` | 14 days |
         *     | `session_capacity` | Every session with its seats, confirmed and waitlisted counts, free seats and workflow state. | `course_id`, `status` | 3 days |
         *
         *     Scope: `reports:write`.
         */
        post: operations["requestReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/{report}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a report (poll its status)
         * @description Its status, progress and, once available, `download_path`.
         *
         *     Scope: `reports:read`.
         */
        get: operations["getReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/{report}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a report’s file
         * @description The CSV or XLSX file, streamed, with `Content-Disposition: attachment`, an `ETag` and `X-Content-Type-Options: nosniff`; a matching `If-None-Match` gets 304 without the file. In every state but `available` a 409 `report_not_available` (an expired report’s file is gone).
         *
         *     Scope: `reports:read`.
         */
        get: operations["downloadReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search every resource at once
         * @description Finds `q` inside the text of each group’s items, case-insensitively (letter case folded beyond ASCII), and answers with every group — `assessments`, `certificates`, `courses`, `documents`, `enrolments`, `meetings`, `notifications`, `reports`, `resources`, `sessions`, `students`, `users`, `workflows` — each with its `total`, counted up to 1000 (`total_capped` is true when more match), and its first `limit` items among every match: by id (`assessments`, `certificates`, `enrolments`, `meetings`, `resources`, `sessions`, `students`, `users`, `workflows`), by title (`courses`), newest first (`documents`, `notifications`, `reports`). A blank `q` returns every group with `total` 0 and no items. Every item carries the `path` that reads it. A change is found as soon as the request that made it has returned. Learning resources are found only once published.
         *
         *     `search:read` alone finds nothing the token could not read otherwise: a group is searched only when the token also holds the read scopes of what it finds and shows (an enrolment shows its student and course, a certificate its holder), `*` holding them all — `assessments`: `courses:read`; `certificates`: `certificates:read`, `students:read`; `courses`: `courses:read`; `documents`: `documents:read`; `enrolments`: `enrolments:read`, `students:read`, `courses:read`; `meetings`: `courses:read`; `notifications`: `identity-notifications:read`; `reports`: `reports:read`; `resources`: `courses:read`; `sessions`: `courses:read`; `students`: `students:read`; `users`: `users:read`; `workflows`: `workflows:read`. Every group carries `restricted`: true for a group the token lacks a scope of, which is answered empty (`total` 0, no items) and not searched; false for the others.
         *
         *     Scope: `search:read`.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/students": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List students
         * @description Users with at least one course application who are not staff. `search` matches the name or the email, case-insensitively; `status` filters on email verification. Ordered by id unless `sort` says otherwise.
         *
         *     Scope: `students:read`.
         */
        get: operations["listStudents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/students/{student}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a student
         * @description A staff user, a user without a course application and a missing id are one and the same 404, so the response never tells which users exist.
         *
         *     Scope: `students:read`.
         */
        get: operations["getStudent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scheduled tasks
         * @description Ordered by id unless `sort` says otherwise. An unknown `task_type` or an `enabled` value other than true/false/1/0 is a 422.
         *
         *     Scope: `tasks:read`.
         */
        get: operations["listTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scheduled task with its latest runs
         * @description Scope: `tasks:read`.
         */
        get: operations["getTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a task now
         * @description Queues a run at once, skipping the cron timer; it then runs like a scheduled run (trigger `manual`). Returns 202 with the queued run and its `Location`, `GET /tasks/{task}/runs/{run}`, to poll until it has finished. A disabled task is a 409 `task_disabled`. A run is attempted once: a failure is recorded on the run and the task (`last_outcome`, `last_error`).
         *
         *     Scope: `tasks:write`.
         */
        post: operations["runTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task}/runs/{run}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one run of a task
         * @description Where `POST /tasks/{task}/run` points (`Location`): poll it until its status says the run has finished.
         *
         *     Scope: `tasks:read`.
         */
        get: operations["getTaskRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List staff users
         * @description Administrators and staff, never students. Ordered by id unless `sort` says otherwise. An unknown `status` is a 422.
         *
         *     Scope: `users:read`.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a staff user
         * @description Creates the user in `draft` and sends nothing; `POST /users/{user}/invite` sends the invitation. An email that any user (staff or student) has already, in any letter case or Unicode form, is a 422 on `email`. Permissions and the status cannot be set here. Answers 201 with the user and its `Location`.
         *
         *     Scope: `users:write`.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a staff user
         * @description A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:read`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a staff user
         * @description Partial update of `name`, `email` and `job_title`: only the fields present change; `job_title: null` clears it. The status moves only through the lifecycle actions and permissions only through the administration: either field is a 422. A new email ends the user’s open invitation: a link already sent (to the old address) no longer works. A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:write`.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/v1/users/{user}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a user
         * @description From every state but `archived` → `archived`, which is final; an open invitation link stops working. Queues one `archival` notification. The move is made at once and the user is returned in its new state (200); the email is sent in the background (see `GET /notifications`). A move that the current state does not allow is a 409 `invalid_transition` and queues nothing. A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:write`.
         */
        post: operations["archiveUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite a draft user
         * @description `draft` → `invited`. Queues one `invitation` notification: an email with a single-use acceptance link that expires. Accepting it (outside this API) makes the user `active`. The move is made at once and the user is returned in its new state (200); the email is sent in the background (see `GET /notifications`). A move that the current state does not allow is a 409 `invalid_transition` and queues nothing. A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:write`.
         */
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a suspended user
         * @description `suspended` → `active`. Queues one `reactivation` notification. The move is made at once and the user is returned in its new state (200); the email is sent in the background (see `GET /notifications`). A move that the current state does not allow is a 409 `invalid_transition` and queues nothing. A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:write`.
         */
        post: operations["reactivateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend an active user
         * @description `active` → `suspended`. Queues one `suspension` notification. The move is made at once and the user is returned in its new state (200); the email is sent in the background (see `GET /notifications`). A move that the current state does not allow is a 409 `invalid_transition` and queues nothing. A student’s id is the same 404 as a missing one: this area holds staff users only.
         *
         *     Scope: `users:write`.
         */
        post: operations["suspendUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflow instances
         * @description Approval workflows and where each instance stands. Ordered by id unless `sort` says otherwise. The definitions:
         *
         *     - `course_approval` (permission `courses.approve`, starts in `pending`): `pending` → `in_review`, `approved`, `rejected`; `in_review` → `approved`, `rejected`, `changes_requested`; `changes_requested` → `pending`; `approved` (final); `rejected` (final). The review of a course submitted for publication; opened when a course moves to `review`.
         *     - `document_approval` (permission `documents.approve`, starts in `pending`): `pending` → `approved`, `rejected`, `changes_requested`; `changes_requested` → `pending`; `approved` (final); `rejected` (final). The review of an uploaded document before it is accepted.
         *
         *     Scope: `workflows:read`.
         */
        get: operations["listWorkflows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a workflow instance with its decisions
         * @description Scope: `workflows:read`.
         */
        get: operations["getWorkflow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign a workflow instance to a staff user
         * @description Sets the `assignee`: `user_id` must be an active staff user (otherwise a 422 on `user_id`). The acting user must hold the workflow’s `approval_policy.required_permission` and be active: a token that acts for no user, or a user without the permission, is a 403 `permission_denied`, and nothing changes.
         *
         *     Scope: `workflows:write`.
         */
        post: operations["assignWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflow}/transition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide: move a workflow instance to another state
         * @description Records the decision (who, from which state to which, the comment, when) and moves the instance to `to_state`. The acting user must hold the workflow’s `approval_policy.required_permission` and be active: a token that acts for no user, or a user without the permission, is a 403 `permission_denied`, and nothing changes. A state the workflow does not have is a 422; one that is not in `allowed_transitions` a 409 `invalid_transition`.
         *
         *     Scope: `workflows:write`.
         */
        post: operations["transitionWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "enrollment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.created
         * @description A student was enrolled in a session: confirmed while seats remain, otherwise waitlisted.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `enrollment.created` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onEnrollmentCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.promoted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.promoted
         * @description A freed seat went to the oldest waitlisted enrolment, which is now confirmed.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `enrollment.promoted` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onEnrollmentPromoted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.completed
         * @description A confirmed enrolment's completion was recorded.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `enrollment.completed` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onEnrollmentCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "certificate.issued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * certificate.issued
         * @description A certificate was issued for a passed enrolment.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `certificate.issued` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCertificateIssued"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course.published
         * @description A course was published: it is now active in the catalogue.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course.published` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCoursePublished"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course.archived": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course.archived
         * @description A course was archived (final).
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course.archived` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCourseArchived"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course_application.imported": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course_application.imported
         * @description One batch of an applications import (CSV) was committed.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course_application.imported` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCourseApplicationImported"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "export.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * export.completed
         * @description A requested report is available for download.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `export.completed` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onExportCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * job.failed
         * @description A background job failed for good after its last attempt.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `job.failed` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onJobFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * alert.sent
         * @description The overall health got worse (pass → warn or fail, warn → fail).
         *
         *     POSTed to every enabled webhook endpoint subscribed to `alert.sent` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onAlertSent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course_intake.registration_opened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course_intake.registration_opened
         * @description A session opened for registration.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course_intake.registration_opened` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCourseIntakeRegistrationOpened"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course_intake.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course_intake.completed
         * @description A session was completed.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course_intake.completed` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCourseIntakeCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course_intake.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course_intake.cancelled
         * @description A session was cancelled.
         *
         *     POSTed to every enabled webhook endpoint subscribed to `course_intake.cancelled` (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.
         */
        post: operations["onCourseIntakeCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @example {
         *       "line1": "12 Learning Lane",
         *       "line2": null,
         *       "city": "London",
         *       "region": null,
         *       "postal_code": "EC1A 1AA",
         *       "country": "GB"
         *     }
         */
        Address: {
            line1: string | null;
            line2: string | null;
            city: string | null;
            region: string | null;
            postal_code: string | null;
            /** @description ISO 3166-1 alpha-2 code. */
            country: string | null;
        };
        /**
         * @description The overall health got worse (pass → warn or fail, warn → fail).
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "alert.sent",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "previous": "pass",
         *         "current": "fail",
         *         "failing_checks": [
         *           {
         *             "name": "storage",
         *             "status": "fail",
         *             "output": "The storage directory is not writable."
         *           }
         *         ]
         *       }
         *     }
         */
        AlertSentEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "alert.sent";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @enum {string|null} */
                previous: "pass" | "warn" | "fail" | null;
                /** @enum {string} */
                current: "pass" | "warn" | "fail";
                failing_checks: {
                    name: string;
                    /** @enum {string} */
                    status: "pass" | "warn" | "fail";
                    output: string | null;
                }[];
            };
        };
        /**
         * @example {
         *       "id": 7,
         *       "session_id": 3,
         *       "title": "Final assessment",
         *       "kind": "exam",
         *       "due_at": "2026-12-09T15:00:00.000Z",
         *       "max_score": 100,
         *       "created_at": "2026-08-14T12:00:00.000Z",
         *       "updated_at": "2026-08-14T12:00:00.000Z"
         *     }
         */
        Assessment: {
            id: number;
            /** @description The training session the assessment belongs to. */
            session_id: number;
            title: string;
            /**
             * @description What sort of assessment it is.
             * @enum {string}
             */
            kind: "assignment" | "exam" | "quiz" | "project" | "practical";
            /**
             * Format: date-time
             * @description When it is due; null when it has no deadline.
             */
            due_at: string | null;
            /** @description The highest score; null when it is not scored. */
            max_score: number | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @description A page of Assessment items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 7,
         *           "session_id": 3,
         *           "title": "Final assessment",
         *           "kind": "exam",
         *           "due_at": "2026-12-09T15:00:00.000Z",
         *           "max_score": 100,
         *           "created_at": "2026-08-14T12:00:00.000Z",
         *           "updated_at": "2026-08-14T12:00:00.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=1&per_page=15",
         *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        AssessmentList: {
            data: components["schemas"]["Assessment"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 48213,
         *       "occurred_at": "2026-03-02T10:15:04.118Z",
         *       "actor_type": "token",
         *       "actor_id": 7,
         *       "actor_name": "crm-sync (for Priya Shah)",
         *       "action": "enrolment.cancelled",
         *       "subject_type": "enrolment",
         *       "subject_id": 1042,
         *       "via": "api",
         *       "request_id": "f3b9c2d4-6a1e-4c57-9d2b-7e8f0a1b2c3d",
         *       "ip": "203.0.113.24",
         *       "changes": {
         *         "status": [
         *           "confirmed",
         *           "cancelled"
         *         ],
         *         "cancelled_at": [
         *           null,
         *           "2026-03-02T10:15:04.118Z"
         *         ],
         *         "cancellation_reason": [
         *           null,
         *           "Moved to the April intake"
         *         ]
         *       }
         *     }
         */
        AuditEvent: {
            /** @description Increases with every event: the order events were recorded in. */
            id: number;
            /**
             * Format: date-time
             * @description When the change was made; it was committed with its event, in one transaction.
             */
            occurred_at: string;
            /**
             * @description Who made the change: `token` (an API token, also one that acts for a user), `user` (a staff user in the console, or `academy admin --as`), `operator` (the `academy` command line) or `system` (jobs and scheduled tasks, and what follows from a change by itself, such as a waitlisted enrolment promoted to a freed seat).
             * @enum {string}
             */
            actor_type: "user" | "token" | "operator" | "system";
            /** @description The token’s or the user’s id; null for the operator and the system. */
            actor_id: number | null;
            /** @description The token’s name (with the user it acts for: `ci-sync (for Ada Lovelace)`), the user’s name, `operator` or `system`. */
            actor_name: string | null;
            /** @description `<resource>.<verb>`, e.g. `course.created`, `course.transitioned`, `enrolment.cancelled`, `user.suspended`, `token.created`, `organization.updated`. */
            action: string;
            /** @description The kind of record changed: `course`, `enrolment`, `user`, `token`, `organization`… */
            subject_type: string;
            /** @description Its id; null for a change without one record (a batch of an import). */
            subject_id: number | null;
            /**
             * @description Where the change was asked for: `api`, `console`, `cli` (`academy admin` and the other commands) or `job`.
             * @enum {string}
             */
            via: "api" | "console" | "cli" | "job";
            /** @description The `X-Request-Id` of the request that made the change, or that queued the job that made it; null on the command line. */
            request_id: string | null;
            /** @description The client’s address (API and console requests); null otherwise. */
            ip: string | null;
            changes: {
                [key: string]: unknown[];
            } | null;
        };
        /**
         * @description A page of AuditEvent items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 48213,
         *           "occurred_at": "2026-03-02T10:15:04.118Z",
         *           "actor_type": "token",
         *           "actor_id": 7,
         *           "actor_name": "crm-sync (for Priya Shah)",
         *           "action": "enrolment.cancelled",
         *           "subject_type": "enrolment",
         *           "subject_id": 1042,
         *           "via": "api",
         *           "request_id": "f3b9c2d4-6a1e-4c57-9d2b-7e8f0a1b2c3d",
         *           "ip": "203.0.113.24",
         *           "changes": {
         *             "status": [
         *               "confirmed",
         *               "cancelled"
         *             ],
         *             "cancelled_at": [
         *               null,
         *               "2026-03-02T10:15:04.118Z"
         *             ],
         *             "cancellation_reason": [
         *               null,
         *               "Moved to the April intake"
         *             ]
         *           }
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/audit-events?page=1&per_page=15",
         *         "last": "/api/v1/audit-events?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/audit-events?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/audit-events",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        AuditEventList: {
            data: components["schemas"]["AuditEvent"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 1,
         *       "certificate_number": "CERT-2026-000001",
         *       "verification_token": "8aUnXa50TMDAOS4weY5qsOs5a3H653mU",
         *       "status": "valid",
         *       "student_id": 24,
         *       "course_id": 1,
         *       "course": "advanced-excel",
         *       "session_id": 1,
         *       "enrolment_id": 1,
         *       "issued_at": "2026-05-11T09:00:00.000Z",
         *       "revoked_at": null,
         *       "revocation_reason": null,
         *       "created_at": "2026-05-11T09:00:00.000Z",
         *       "updated_at": "2026-05-11T09:00:00.000Z"
         *     }
         */
        Certificate: {
            id: number;
            /** @description Human-facing number, `CERT-<year of issue>-<sequence>` (e.g. `CERT-2026-000123`). Never accepted by verification. */
            certificate_number: string;
            /** @description Opaque, URL-safe token of 192 random bits: the holder shares `/api/v1/certificates/verify/{verification_token}` so that anyone can check the certificate. Treat it like a link that must not be guessable. */
            verification_token: string;
            /**
             * @description `valid` until the certificate is revoked; revocation is final.
             * @enum {string}
             */
            status: "valid" | "revoked";
            /** @description The holder (a student). */
            student_id: number;
            course_id: number;
            /** @description Slug of the course. */
            course: string;
            /** @description The training session (intake) the holder completed. */
            session_id: number;
            /** @description The confirmed enrolment, completed as `passed`, that earned the certificate. */
            enrolment_id: number;
            /**
             * Format: date-time
             * @description When the certificate was issued.
             */
            issued_at: string;
            /**
             * Format: date-time
             * @description When the certificate was revoked; null while valid.
             */
            revoked_at: string | null;
            /** @description Why it was revoked, as the administration recorded it. */
            revocation_reason: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change (issue or revocation).
             */
            updated_at: string;
        };
        /**
         * @description A certificate was issued for a passed enrolment.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "certificate.issued",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "certificate_id": 123,
         *         "certificate_number": "CERT-2026-000123",
         *         "student_id": 30,
         *         "course_id": 3,
         *         "course": "project-management-fundamentals",
         *         "session_id": 3,
         *         "enrolment_id": 27,
         *         "issued_at": "2026-12-10T09:00:00.000Z"
         *       }
         *     }
         */
        CertificateIssuedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "certificate.issued";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The certificate. */
                certificate_id: number;
                /** @example CERT-2026-000123 */
                certificate_number: string;
                /** @description The holder (a user id). */
                student_id: number;
                /** @description The course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                course: string;
                /** @description The session. */
                session_id: number;
                /** @description The enrolment it certifies. */
                enrolment_id: number;
                /**
                 * Format: date-time
                 * @description When it was issued.
                 */
                issued_at: string;
            };
        };
        /**
         * @description A page of Certificate items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 1,
         *           "certificate_number": "CERT-2026-000001",
         *           "verification_token": "8aUnXa50TMDAOS4weY5qsOs5a3H653mU",
         *           "status": "valid",
         *           "student_id": 24,
         *           "course_id": 1,
         *           "course": "advanced-excel",
         *           "session_id": 1,
         *           "enrolment_id": 1,
         *           "issued_at": "2026-05-11T09:00:00.000Z",
         *           "revoked_at": null,
         *           "revocation_reason": null,
         *           "created_at": "2026-05-11T09:00:00.000Z",
         *           "updated_at": "2026-05-11T09:00:00.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/certificates?page=1&per_page=15",
         *         "last": "/api/v1/certificates?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/certificates?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/certificates",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        CertificateList: {
            data: components["schemas"]["Certificate"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "holder_name": "Mia Dubois",
         *       "course_title": "Advanced Excel",
         *       "issued_on": "2026-05-11",
         *       "status": "valid",
         *       "revoked_at": null
         *     }
         */
        CertificateVerification: {
            /** @description Name of the certificate holder. */
            holder_name: string;
            /** @description Title of the course. */
            course_title: string;
            /**
             * Format: date
             * @description Date of issue (UTC), YYYY-MM-DD.
             */
            issued_on: string;
            /**
             * @description `valid` until the certificate is revoked; revocation is final.
             * @enum {string}
             */
            status: "valid" | "revoked";
            /**
             * Format: date-time
             * @description When the certificate was revoked; null while valid.
             */
            revoked_at: string | null;
        };
        /**
         * @example {
         *       "id": 3,
         *       "slug": "project-management-fundamentals",
         *       "code": "PM-101",
         *       "title": "Project Management Fundamentals",
         *       "description": "Plan, run and close projects: scope, schedule, risk and stakeholder management, with a PRINCE2-style case study.",
         *       "price": "450.00",
         *       "currency": "GBP",
         *       "language": "en",
         *       "status": "published",
         *       "published_at": "2026-03-02T10:00:00.000Z",
         *       "archived_at": null,
         *       "created_at": "2026-02-20T10:00:00.000Z",
         *       "updated_at": "2026-03-02T10:00:00.000Z"
         *     }
         */
        Course: {
            id: number;
            /** @description Identifies the course in paths (`/courses/{slug}`): lowercase words joined by hyphens. */
            slug: string;
            /** @description The training provider's course code, e.g. `PM-101`. */
            code: string;
            title: string;
            description: string | null;
            /** @description The price as a decimal string with the currency’s minor-unit digits, e.g. `"450.00"` (EUR) or `"45000"` (JPY). */
            price: string;
            /** @description ISO 4217 code of `price`. */
            currency: string;
            /** @description BCP 47 tag of the language the course is taught in, e.g. `en` or `de-AT`. */
            language: string;
            /**
             * @description Publication state: `draft` → `review` → `approved` (or back to `draft`) → `published` → `archived` (final). Changed in the administration, not through the API. Only `published` courses are `active`.
             * @enum {string}
             */
            status: "draft" | "review" | "approved" | "published" | "archived";
            /**
             * Format: date-time
             * @description When the course was published.
             */
            published_at: string | null;
            /**
             * Format: date-time
             * @description When the course was archived.
             */
            archived_at: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @description One batch of an applications import (CSV) was committed.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course_application.imported",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "import_id": "imp_5Jx2QnV8",
         *         "source": "applications-2026-09.csv",
         *         "batch": 1,
         *         "batches": 1,
         *         "students_created": 1,
         *         "applications_created": 1,
         *         "applications": [
         *           {
         *             "id": 88,
         *             "student_id": 30,
         *             "course_id": 3,
         *             "course": "project-management-fundamentals"
         *           }
         *         ]
         *       }
         *     }
         */
        CourseApplicationImportedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course_application.imported";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description Shared by every batch of one import. */
                import_id: string;
                /** @description Where the rows came from, e.g. the file name. */
                source: string;
                /** @description 1-based number of this batch. */
                batch: number;
                /** @description Batches in the import. */
                batches: number;
                students_created: number;
                applications_created: number;
                applications: {
                    /** @description The application. */
                    id: number;
                    /** @description The student. */
                    student_id: number;
                    /** @description The course. */
                    course_id: number;
                    course: string | null;
                }[];
            };
        };
        /**
         * @description A course was archived (final).
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course.archived",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "course_id": 1,
         *         "slug": "advanced-excel",
         *         "code": "XL-300",
         *         "title": "Advanced Excel",
         *         "status": "archived",
         *         "at": "2026-05-30T06:00:00.000Z"
         *       }
         *     }
         */
        CourseArchivedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course.archived";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                slug: string;
                /**
                 * @description The provider's course code.
                 * @example PM-101
                 */
                code: string;
                /** @example Project Management Fundamentals */
                title: string;
                /** @enum {string} */
                status: "archived";
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
            };
        };
        /**
         * @description A session was cancelled.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course_intake.cancelled",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "session_id": 5,
         *         "course_id": 4,
         *         "course": "python-for-data-analysis",
         *         "name": "Evening cohort",
         *         "workflow_state": "cancelled",
         *         "starts_on": "2027-01-11",
         *         "ends_on": "2027-02-15",
         *         "at": "2026-11-20T12:00:00.000Z"
         *       }
         *     }
         */
        CourseIntakeCancelledEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course_intake.cancelled";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The session (course intake). */
                session_id: number;
                /** @description Its course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                course: string;
                /**
                 * @description The name of the session.
                 * @example Autumn cohort
                 */
                name: string;
                /** Format: date */
                starts_on: string;
                /** Format: date */
                ends_on: string;
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
                /** @enum {string} */
                workflow_state: "cancelled";
            };
        };
        /**
         * @description A session was completed.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course_intake.completed",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "session_id": 1,
         *         "course_id": 1,
         *         "course": "advanced-excel",
         *         "name": "Final run",
         *         "workflow_state": "completed",
         *         "starts_on": "2026-05-08",
         *         "ends_on": "2026-05-09",
         *         "at": "2026-05-10T06:00:00.000Z"
         *       }
         *     }
         */
        CourseIntakeCompletedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course_intake.completed";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The session (course intake). */
                session_id: number;
                /** @description Its course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                course: string;
                /**
                 * @description The name of the session.
                 * @example Autumn cohort
                 */
                name: string;
                /** Format: date */
                starts_on: string;
                /** Format: date */
                ends_on: string;
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
                /** @enum {string} */
                workflow_state: "completed";
            };
        };
        /**
         * @description A session opened for registration.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course_intake.registration_opened",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "session_id": 3,
         *         "course_id": 3,
         *         "course": "project-management-fundamentals",
         *         "name": "Autumn cohort",
         *         "workflow_state": "open_for_registration",
         *         "starts_on": "2026-12-07",
         *         "ends_on": "2026-12-09",
         *         "at": "2026-09-01T08:00:00.000Z"
         *       }
         *     }
         */
        CourseIntakeRegistrationOpenedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course_intake.registration_opened";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The session (course intake). */
                session_id: number;
                /** @description Its course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                course: string;
                /**
                 * @description The name of the session.
                 * @example Autumn cohort
                 */
                name: string;
                /** Format: date */
                starts_on: string;
                /** Format: date */
                ends_on: string;
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
                /** @enum {string} */
                workflow_state: "open_for_registration";
            };
        };
        /**
         * @description A page of Course items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 3,
         *           "slug": "project-management-fundamentals",
         *           "code": "PM-101",
         *           "title": "Project Management Fundamentals",
         *           "description": "Plan, run and close projects: scope, schedule, risk and stakeholder management, with a PRINCE2-style case study.",
         *           "price": "450.00",
         *           "currency": "GBP",
         *           "language": "en",
         *           "status": "published",
         *           "published_at": "2026-03-02T10:00:00.000Z",
         *           "archived_at": null,
         *           "created_at": "2026-02-20T10:00:00.000Z",
         *           "updated_at": "2026-03-02T10:00:00.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/courses?page=1&per_page=15",
         *         "last": "/api/v1/courses?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/courses?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/courses",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        CourseList: {
            data: components["schemas"]["Course"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @description A course was published: it is now active in the catalogue.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "course.published",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "course_id": 3,
         *         "slug": "project-management-fundamentals",
         *         "code": "PM-101",
         *         "title": "Project Management Fundamentals",
         *         "status": "published",
         *         "at": "2026-03-02T10:00:00.000Z"
         *       }
         *     }
         */
        CoursePublishedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "course.published";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The course. */
                course_id: number;
                /**
                 * @description The course's slug.
                 * @example project-management-fundamentals
                 */
                slug: string;
                /**
                 * @description The provider's course code.
                 * @example PM-101
                 */
                code: string;
                /** @example Project Management Fundamentals */
                title: string;
                /** @enum {string} */
                status: "published";
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
            };
        };
        /**
         * @example {
         *       "id": 12,
         *       "type": "employment_letter",
         *       "status": "available",
         *       "title": "Employment letter, Contoso Ltd",
         *       "filename": "employment-letter-contoso.pdf",
         *       "media_type": "application/pdf",
         *       "size": 184320,
         *       "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
         *       "student_id": 30,
         *       "supersedes_id": null,
         *       "superseded_by_id": null,
         *       "failure_reason": null,
         *       "download_path": "/api/v1/documents/12/download",
         *       "available_at": "2026-09-04T11:02:17.441Z",
         *       "archived_at": null,
         *       "deleted_at": null,
         *       "created_at": "2026-09-04T11:02:16.903Z",
         *       "updated_at": "2026-09-04T11:02:17.441Z"
         *     }
         */
        Document: {
            id: number;
            /**
             * @description What the document is; sets its size limit and accepted media types.
             * @enum {string}
             */
            type: "profile_document" | "employment_letter" | "character_reference" | "training_certificate" | "course_document" | "generated_report";
            /**
             * @description `stored` (received, being checked), `available` (checked; downloadable), `archived` (kept, superseded or put away; still downloadable), `deleted` (soft and final: listed, but its download is a 404).
             * @enum {string}
             */
            status: "stored" | "available" | "archived" | "deleted";
            /** @description A title of the client’s choosing. */
            title: string | null;
            /** @description The file name the client uploaded, as sent back on download. */
            filename: string;
            /** @description Sniffed from the content (its signature), never taken from the client. */
            media_type: string;
            /** @description Bytes. */
            size: number;
            /** @description Hex SHA-256 of the content, computed while it was received. */
            sha256: string;
            /** @description The student it belongs to (GET /students/{student}), if any. */
            student_id: number | null;
            /** @description The prior version this one replaced (archived by the upload). */
            supersedes_id: number | null;
            /** @description The newer version that replaced this one, if any. */
            superseded_by_id: number | null;
            /** @description Why a `stored` document is not available: its stored file did not match what was received, or could not be read back to be checked (after every retry). Null once it is available, and for every document without a problem. */
            failure_reason: string | null;
            /** @description Where the file is read: GET this path (documents:read). */
            download_path: string;
            /**
             * Format: date-time
             * @description When the stored file was checked and made available.
             */
            available_at: string | null;
            /**
             * Format: date-time
             * @description When it was archived.
             */
            archived_at: string | null;
            /**
             * Format: date-time
             * @description When it was deleted.
             */
            deleted_at: string | null;
            /**
             * Format: date-time
             * @description When it was uploaded.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @description A page of Document items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 12,
         *           "type": "employment_letter",
         *           "status": "available",
         *           "title": "Employment letter, Contoso Ltd",
         *           "filename": "employment-letter-contoso.pdf",
         *           "media_type": "application/pdf",
         *           "size": 184320,
         *           "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
         *           "student_id": 30,
         *           "supersedes_id": null,
         *           "superseded_by_id": null,
         *           "failure_reason": null,
         *           "download_path": "/api/v1/documents/12/download",
         *           "available_at": "2026-09-04T11:02:17.441Z",
         *           "archived_at": null,
         *           "deleted_at": null,
         *           "created_at": "2026-09-04T11:02:16.903Z",
         *           "updated_at": "2026-09-04T11:02:17.441Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/documents?page=1&per_page=15",
         *         "last": "/api/v1/documents?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/documents?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/documents",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        DocumentList: {
            data: components["schemas"]["Document"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "title": "Employment letter, Contoso Ltd (signed)"
         *     }
         */
        DocumentPatch: {
            title?: string | null;
            /** @description A student’s id, or null. */
            student_id?: number | null;
        };
        /**
         * @description A confirmed enrolment's completion was recorded.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "enrollment.completed",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "enrolment_id": 27,
         *         "student_id": 30,
         *         "session_id": 3,
         *         "course_id": 3,
         *         "completion_outcome": "passed",
         *         "at": "2026-12-09T16:30:00.000Z"
         *       }
         *     }
         */
        EnrollmentCompletedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "enrollment.completed";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The enrolment. */
                enrolment_id: number;
                /** @description The student (a user id). */
                student_id: number;
                /** @description The session (course intake). */
                session_id: number;
                /** @description The course. */
                course_id: number;
                /** @enum {string} */
                completion_outcome: "passed" | "failed" | "withdrawn";
                /**
                 * Format: date-time
                 * @description When the change happened.
                 */
                at: string;
            };
        };
        /**
         * @description A student was enrolled in a session: confirmed while seats remain, otherwise waitlisted.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "enrollment.created",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "enrolment_id": 27,
         *         "student_id": 30,
         *         "session_id": 3,
         *         "course_id": 3,
         *         "status": "confirmed",
         *         "waitlist_position": null
         *       }
         *     }
         */
        EnrollmentCreatedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "enrollment.created";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The enrolment. */
                enrolment_id: number;
                /** @description The student (a user id). */
                student_id: number;
                /** @description The session (course intake). */
                session_id: number;
                /** @description The course. */
                course_id: number;
                /** @enum {string} */
                status: "confirmed" | "waitlisted";
                /** @description 1-based, while waitlisted. */
                waitlist_position: number | null;
            };
        };
        /**
         * @description A freed seat went to the oldest waitlisted enrolment, which is now confirmed.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "enrollment.promoted",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "enrolment_id": 52,
         *         "student_id": 61,
         *         "session_id": 3,
         *         "course_id": 3,
         *         "status": "confirmed",
         *         "previous_waitlist_position": 1
         *       }
         *     }
         */
        EnrollmentPromotedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "enrollment.promoted";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The enrolment. */
                enrolment_id: number;
                /** @description The student (a user id). */
                student_id: number;
                /** @description The session (course intake). */
                session_id: number;
                /** @description The course. */
                course_id: number;
                /** @enum {string} */
                status: "confirmed";
                previous_waitlist_position: number;
            };
        };
        /**
         * @example {
         *       "id": 27,
         *       "student_id": 30,
         *       "session_id": 3,
         *       "course_id": 3,
         *       "status": "confirmed",
         *       "waitlist_position": null,
         *       "confirmed_at": "2026-09-03T10:15:02.664Z",
         *       "cancelled_at": null,
         *       "cancellation_reason": null,
         *       "completion_outcome": null,
         *       "completion_notes": null,
         *       "completion_recorded_at": null,
         *       "created_at": "2026-09-03T10:15:02.664Z",
         *       "updated_at": "2026-09-03T10:15:02.664Z"
         *     }
         */
        Enrolment: {
            id: number;
            /** @description The enrolled student (a user, see `/students/{student}`). */
            student_id: number;
            /** @description The training session (intake) enrolled in. */
            session_id: number;
            /** @description The course of that session. */
            course_id: number;
            /**
             * @description `confirmed` holds a seat; `waitlisted` waits for one (enrolling into a session without free seats whose waitlist is enabled); `cancelled` is final and frees the seat, which goes to the oldest waitlisted enrolment.
             * @enum {string}
             */
            status: "confirmed" | "waitlisted" | "cancelled";
            /** @description 1-based place on the session’s waitlist (positions stay contiguous); null unless waitlisted. */
            waitlist_position: number | null;
            /**
             * Format: date-time
             * @description When the enrolment got its seat (at creation, or when promoted from the waitlist).
             */
            confirmed_at: string | null;
            /**
             * Format: date-time
             * @description When the enrolment was cancelled.
             */
            cancelled_at: string | null;
            cancellation_reason: string | null;
            /**
             * @description Recorded at the end of a confirmed enrolment.
             * @enum {string|null}
             */
            completion_outcome: "passed" | "failed" | "withdrawn" | null;
            completion_notes: string | null;
            /**
             * Format: date-time
             * @description When the completion was recorded.
             */
            completion_recorded_at: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change (a waitlist position moving up counts).
             */
            updated_at: string;
        };
        /**
         * @description A page of Enrolment items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 27,
         *           "student_id": 30,
         *           "session_id": 3,
         *           "course_id": 3,
         *           "status": "confirmed",
         *           "waitlist_position": null,
         *           "confirmed_at": "2026-09-03T10:15:02.664Z",
         *           "cancelled_at": null,
         *           "cancellation_reason": null,
         *           "completion_outcome": null,
         *           "completion_notes": null,
         *           "completion_recorded_at": null,
         *           "created_at": "2026-09-03T10:15:02.664Z",
         *           "updated_at": "2026-09-03T10:15:02.664Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/enrolments?page=1&per_page=15",
         *         "last": "/api/v1/enrolments?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/enrolments?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/enrolments",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        EnrolmentList: {
            data: components["schemas"]["Enrolment"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "message": "The requested resource was not found.",
         *       "code": "not_found"
         *     }
         */
        Error: {
            message: string;
            /** @description Machine-readable, snake_case. See the error catalogue in the API description. */
            code: string;
            /** @description Validation messages keyed by field (dot notation). */
            errors?: {
                [key: string]: string[];
            };
        };
        /**
         * @description The JSON body POSTed to the integration.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "enrollment.created",
         *       "version": "1",
         *       "occurred_at": "2026-09-03T10:15:02.664Z",
         *       "payload": {
         *         "enrolment_id": 27,
         *         "student_id": 30,
         *         "session_id": 3,
         *         "course_id": 3,
         *         "status": "confirmed",
         *         "waitlist_position": null
         *       }
         *     }
         */
        EventEnvelope: {
            /** @description The event id; also sent as the `Academy-Event-Id` header. */
            id: string;
            /** @description The event type, e.g. `enrollment.created`. */
            type: string;
            /** @description Version of the envelope and payload shape. */
            version: string;
            /** Format: date-time */
            occurred_at: string;
            /** @description The event-specific data. */
            payload: {
                [key: string]: unknown;
            };
        };
        /**
         * @description A requested report is available for download.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "export.completed",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "report_id": 6,
         *         "type": "enrolments",
         *         "format": "csv",
         *         "row_count": 212,
         *         "size": 28415,
         *         "download_path": "/api/v1/reports/6/download"
         *       }
         *     }
         */
        ExportCompletedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "export.completed";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The report. */
                report_id: number;
                /** @enum {string} */
                type: "enrolments" | "completions" | "certificates_issued" | "attendance" | "session_capacity";
                /** @enum {string} */
                format: "csv" | "xlsx";
                row_count: number;
                /** @description Bytes of the file. */
                size: number;
                /** @description Where to download it (needs `reports:read`). */
                download_path: string;
            };
        };
        /**
         * @example {
         *       "name": "database",
         *       "status": "pass",
         *       "component_type": "datastore",
         *       "observed_value": 1.2,
         *       "observed_unit": "ms",
         *       "output": null,
         *       "time": "2026-11-24T03:00:00.052Z"
         *     }
         */
        HealthCheckResult: {
            /** @description The check, e.g. `database`, `redis`, `queue`, `storage`, `mail`, `disk`, `scheduler`. */
            name: string;
            /**
             * @description `pass`, `warn` or `fail`.
             * @enum {string}
             */
            status: "pass" | "warn" | "fail";
            /** @description What kind of part was checked: `datastore`, `component` or `system`. */
            component_type: string;
            /** @description The measured value the status was derived from. */
            observed_value: number | null;
            /** @description `ms`, `s` or `%`. */
            observed_unit: string | null;
            /** @description Why the check warns or fails, or a short note; null when there is nothing to say. */
            output: string | null;
            /**
             * Format: date-time
             * @description When this result was obtained.
             */
            time: string;
        };
        /**
         * @example {
         *       "status": "pass",
         *       "checks": [
         *         {
         *           "name": "database",
         *           "status": "pass",
         *           "component_type": "datastore",
         *           "observed_value": 1.2,
         *           "observed_unit": "ms",
         *           "output": null,
         *           "time": "2026-11-24T03:00:00.052Z"
         *         },
         *         {
         *           "name": "queue",
         *           "status": "pass",
         *           "component_type": "component",
         *           "observed_value": 0,
         *           "observed_unit": "s",
         *           "output": "No job is waiting.",
         *           "time": "2026-11-24T03:00:00.052Z"
         *         }
         *       ]
         *     }
         */
        HealthReport: {
            /**
             * @description The worst status among the checks.
             * @enum {string}
             */
            status: "pass" | "warn" | "fail";
            checks: components["schemas"]["HealthCheckResult"][];
        };
        /**
         * @example {
         *       "id": 41,
         *       "integration_key": "crm",
         *       "event_id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "event_type": "enrollment.created",
         *       "status": "delivered",
         *       "attempts": 1,
         *       "max_attempts": 8,
         *       "last_status_code": 200,
         *       "last_error": null,
         *       "payload": {
         *         "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *         "type": "enrollment.created",
         *         "version": "1",
         *         "occurred_at": "2026-09-03T10:15:02.664Z",
         *         "payload": {
         *           "enrolment_id": 27,
         *           "student_id": 30,
         *           "session_id": 3,
         *           "course_id": 3,
         *           "status": "confirmed",
         *           "waitlist_position": null
         *         }
         *       },
         *       "delivered_at": "2026-09-03T10:15:03.118Z",
         *       "failed_at": null,
         *       "created_at": "2026-09-03T10:15:02.701Z",
         *       "updated_at": "2026-09-03T10:15:03.118Z"
         *     }
         */
        IntegrationMessage: {
            id: number;
            integration_key: string;
            event_id: string | null;
            event_type: string;
            /**
             * @description `queued` (waiting for its next attempt), `delivering` (an attempt is under way), `delivered` (the integration answered 2xx), `failed` (every attempt failed; may be retried).
             * @enum {string}
             */
            status: "queued" | "delivering" | "delivered" | "failed";
            /** @description Attempts made in the current series (a retry starts a new series). */
            attempts: number;
            /** @description Attempts per series before the message fails. */
            max_attempts: number;
            /** @description HTTP status of the last answer; null when none was received. */
            last_status_code: number | null;
            last_error: string | null;
            payload: components["schemas"]["EventEnvelope"];
            /** Format: date-time */
            delivered_at: string | null;
            /** Format: date-time */
            failed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @description A page of IntegrationMessage items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 41,
         *           "integration_key": "crm",
         *           "event_id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *           "event_type": "enrollment.created",
         *           "status": "delivered",
         *           "attempts": 1,
         *           "max_attempts": 8,
         *           "last_status_code": 200,
         *           "last_error": null,
         *           "payload": {
         *             "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *             "type": "enrollment.created",
         *             "version": "1",
         *             "occurred_at": "2026-09-03T10:15:02.664Z",
         *             "payload": {
         *               "enrolment_id": 27,
         *               "student_id": 30,
         *               "session_id": 3,
         *               "course_id": 3,
         *               "status": "confirmed",
         *               "waitlist_position": null
         *             }
         *           },
         *           "delivered_at": "2026-09-03T10:15:03.118Z",
         *           "failed_at": null,
         *           "created_at": "2026-09-03T10:15:02.701Z",
         *           "updated_at": "2026-09-03T10:15:03.118Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/integrations?page=1&per_page=15",
         *         "last": "/api/v1/integrations?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/integrations?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/integrations",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        IntegrationMessageList: {
            data: components["schemas"]["IntegrationMessage"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @description A background job failed for good after its last attempt.
         * @example {
         *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
         *       "type": "job.failed",
         *       "version": "1",
         *       "occurred_at": "2026-11-24T09:30:00.000Z",
         *       "payload": {
         *         "job_id": 4410,
         *         "job_name": "notifications.deliver",
         *         "attempts": 5,
         *         "last_error": "SMTP 421: service not available"
         *       }
         *     }
         */
        JobFailedEvent: {
            /** @description Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it. */
            id: string;
            /** @constant */
            type: "job.failed";
            /** @constant */
            version: "1";
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            occurred_at: string;
            payload: {
                /** @description The job. */
                job_id: number;
                /** @example notifications.deliver */
                job_name: string;
                attempts: number;
                last_error: string;
            };
        };
        /**
         * @example {
         *       "id": 5,
         *       "session_id": 3,
         *       "title": "Course handbook",
         *       "type": "file",
         *       "url": "https://northwind-academy.example/handbooks/pm-101.pdf",
         *       "body": null,
         *       "status": "published",
         *       "published_at": "2026-08-14T12:00:00.000Z",
         *       "created_at": "2026-08-14T12:00:00.000Z",
         *       "updated_at": "2026-08-14T12:00:00.000Z"
         *     }
         */
        LearningResource: {
            id: number;
            /** @description The training session the material belongs to. */
            session_id: number;
            title: string;
            /**
             * @description `link` and `file` point at `url`; `text` carries its content in `body`.
             * @enum {string}
             */
            type: "link" | "file" | "text";
            /** @description Where a link or a file is. */
            url: string | null;
            /** @description The text of a `text` resource. */
            body: string | null;
            /**
             * @description Always `published` through the API: draft resources are not shown.
             * @enum {string}
             */
            status: "draft" | "published";
            /**
             * Format: date-time
             * @description When the resource was published.
             */
            published_at: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @description A page of LearningResource items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 5,
         *           "session_id": 3,
         *           "title": "Course handbook",
         *           "type": "file",
         *           "url": "https://northwind-academy.example/handbooks/pm-101.pdf",
         *           "body": null,
         *           "status": "published",
         *           "published_at": "2026-08-14T12:00:00.000Z",
         *           "created_at": "2026-08-14T12:00:00.000Z",
         *           "updated_at": "2026-08-14T12:00:00.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=1&per_page=15",
         *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/resources",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        LearningResourceList: {
            data: components["schemas"]["LearningResource"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 9,
         *       "session_id": 3,
         *       "held_on": "2026-12-07",
         *       "starts_at": "2026-12-07T09:00:00.000Z",
         *       "ends_at": "2026-12-07T17:00:00.000Z",
         *       "location": "Room 2.14, 12 Learning Lane, London EC1A 1AA",
         *       "status": "Scheduled",
         *       "effective_status": "scheduled",
         *       "cancelled_at": null,
         *       "created_at": "2026-08-14T12:00:00.000Z",
         *       "updated_at": "2026-08-14T12:00:00.000Z"
         *     }
         */
        Meeting: {
            id: number;
            /** @description The training session this class day belongs to. */
            session_id: number;
            /**
             * Format: date
             * @description The day of the meeting, in the organization’s time zone.
             */
            held_on: string;
            /**
             * Format: date-time
             * @description When it starts (on `held_on` in the organization’s time zone); null when not set.
             */
            starts_at: string | null;
            /**
             * Format: date-time
             * @description When it ends (after `starts_at`, on `held_on`); null when not set.
             */
            ends_at: string | null;
            /** @description Where it takes place (a room, an address or a video link). */
            location: string | null;
            /**
             * @description The stored status: `Scheduled` or `Cancelled` (by an administrator).
             * @enum {string}
             */
            status: "Scheduled" | "Cancelled";
            /**
             * @description `cancelled` when `status` is `Cancelled`; otherwise `completed` once the meeting is over — at `ends_at`, or without one at the end of `held_on` in the organization’s time zone — and `scheduled` before.
             * @enum {string}
             */
            effective_status: "scheduled" | "completed" | "cancelled";
            /**
             * Format: date-time
             * @description When the meeting was cancelled.
             */
            cancelled_at: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @description A page of Meeting items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 9,
         *           "session_id": 3,
         *           "held_on": "2026-12-07",
         *           "starts_at": "2026-12-07T09:00:00.000Z",
         *           "ends_at": "2026-12-07T17:00:00.000Z",
         *           "location": "Room 2.14, 12 Learning Lane, London EC1A 1AA",
         *           "status": "Scheduled",
         *           "effective_status": "scheduled",
         *           "cancelled_at": null,
         *           "created_at": "2026-08-14T12:00:00.000Z",
         *           "updated_at": "2026-08-14T12:00:00.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=1&per_page=15",
         *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        MeetingList: {
            data: components["schemas"]["Meeting"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 15,
         *       "type": "invitation",
         *       "status": "sent",
         *       "user_id": 4,
         *       "recipient": "daniel.okafor@northwind-academy.example",
         *       "subject": "You are invited to Northwind Training Academy",
         *       "attempts": 1,
         *       "max_attempts": 5,
         *       "last_error": null,
         *       "sent_at": "2026-02-02T09:30:02.512Z",
         *       "failed_at": null,
         *       "created_at": "2026-02-02T09:30:00.000Z",
         *       "updated_at": "2026-02-02T09:30:02.512Z"
         *     }
         */
        Notification: {
            id: number;
            /**
             * @description The lifecycle move it tells the user about: `invitation` (draft → invited; carries the acceptance link), `activation` (invited → active), `suspension`, `reactivation`, `archival`; or `password_reset` (a one-time link to set a new password, asked for on the console’s sign-in page; valid 30 minutes).
             * @enum {string}
             */
            type: "invitation" | "activation" | "suspension" | "reactivation" | "archival" | "password_reset";
            /**
             * @description Delivery: `queued` (waiting for its next attempt), `sent` (the mail server accepted it), `failed` (every attempt failed, or the server refused the recipient for good; `last_error` says why).
             * @enum {string}
             */
            status: "queued" | "sent" | "failed";
            /** @description The staff user it is about (GET /users/{user}). */
            user_id: number | null;
            /** @description The address it is sent to: the user’s email when the move was made. */
            recipient: string;
            /** @description In the organization’s name and locale. */
            subject: string;
            /** @description Delivery attempts made so far. */
            attempts: number;
            /** @description Attempts before the notification fails. */
            max_attempts: number;
            /** @description Why the last attempt failed; null once sent. */
            last_error: string | null;
            /**
             * Format: date-time
             * @description When the mail server accepted it.
             */
            sent_at: string | null;
            /**
             * Format: date-time
             * @description When delivery was given up.
             */
            failed_at: string | null;
            /**
             * Format: date-time
             * @description When the move that caused it was made.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change (an attempt, the outcome).
             */
            updated_at: string;
        };
        /**
         * @description A page of Notification items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 15,
         *           "type": "invitation",
         *           "status": "sent",
         *           "user_id": 4,
         *           "recipient": "daniel.okafor@northwind-academy.example",
         *           "subject": "You are invited to Northwind Training Academy",
         *           "attempts": 1,
         *           "max_attempts": 5,
         *           "last_error": null,
         *           "sent_at": "2026-02-02T09:30:02.512Z",
         *           "failed_at": null,
         *           "created_at": "2026-02-02T09:30:00.000Z",
         *           "updated_at": "2026-02-02T09:30:02.512Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/notifications?page=1&per_page=15",
         *         "last": "/api/v1/notifications?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/notifications?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/notifications",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        NotificationList: {
            data: components["schemas"]["Notification"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "name": "Northwind Training Academy",
         *       "legal_name": "Northwind Training Academy Ltd",
         *       "timezone": "Europe/London",
         *       "locale": "en-GB",
         *       "currency": "GBP",
         *       "contact_email": "office@northwind-academy.example",
         *       "phone": "+44 20 7946 0000",
         *       "website": "https://northwind-academy.example",
         *       "address": {
         *         "line1": "12 Learning Lane",
         *         "line2": null,
         *         "city": "London",
         *         "region": null,
         *         "postal_code": "EC1A 1AA",
         *         "country": "GB"
         *       },
         *       "created_at": "2026-01-05T09:00:00.000Z",
         *       "updated_at": "2026-06-02T14:12:45.318Z"
         *     }
         */
        Organization: {
            name: string;
            legal_name: string | null;
            /** @description IANA time zone, e.g. Europe/Berlin. */
            timezone: string;
            /** @description BCP 47 language tag, e.g. en-GB. */
            locale: string;
            /** @description ISO 4217 code of the default currency. */
            currency: string;
            /** Format: email */
            contact_email: string | null;
            phone: string | null;
            /** Format: uri */
            website: string | null;
            address: components["schemas"]["Address"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @example {
         *       "phone": "+44 20 7946 0001",
         *       "website": "https://northwind-academy.example"
         *     }
         */
        OrganizationPatch: {
            /** Format: line */
            name?: string;
            legal_name?: string | null;
            /**
             * Format: timezone
             * @description IANA time zone, e.g. Europe/Berlin.
             */
            timezone?: string;
            /**
             * Format: locale
             * @description BCP 47 language tag, e.g. en-GB.
             */
            locale?: string;
            /**
             * Format: currency
             * @description ISO 4217 code, e.g. EUR.
             */
            currency?: string;
            /** Format: email */
            contact_email?: string | null;
            phone?: string | null;
            /**
             * Format: uri
             * @description An http or https URL.
             */
            website?: string | null;
            address?: {
                line1?: string | null;
                line2?: string | null;
                city?: string | null;
                region?: string | null;
                postal_code?: string | null;
                /** @description ISO 3166-1 alpha-2 code. */
                country?: string | null;
            };
        };
        /**
         * @example {
         *       "first": "/api/v1/courses?page=1&per_page=15",
         *       "last": "/api/v1/courses?page=2&per_page=15",
         *       "prev": null,
         *       "next": "/api/v1/courses?page=2&per_page=15"
         *     }
         */
        PaginationLinks: {
            /** @description A path with its query (e.g. `/api/v1/tasks?page=2&per_page=15`), relative to the URL of the request; an absolute URL when the deployment sets its public URL (`ACADEMY_PUBLIC_URL`). */
            first: string;
            /** @description A path with its query (e.g. `/api/v1/tasks?page=2&per_page=15`), relative to the URL of the request; an absolute URL when the deployment sets its public URL (`ACADEMY_PUBLIC_URL`). */
            last: string;
            /** @description A path with its query (e.g. `/api/v1/tasks?page=2&per_page=15`), relative to the URL of the request; an absolute URL when the deployment sets its public URL (`ACADEMY_PUBLIC_URL`). */
            prev: string | null;
            /** @description A path with its query (e.g. `/api/v1/tasks?page=2&per_page=15`), relative to the URL of the request; an absolute URL when the deployment sets its public URL (`ACADEMY_PUBLIC_URL`). */
            next: string | null;
        };
        /**
         * @example {
         *       "current_page": 1,
         *       "from": 1,
         *       "last_page": 2,
         *       "path": "/api/v1/courses",
         *       "per_page": 15,
         *       "to": 15,
         *       "total": 27
         *     }
         */
        PaginationMeta: {
            current_page: number;
            from: number | null;
            last_page: number;
            /** @description The list's path without query; absolute like the links when the deployment sets its public URL. */
            path: string;
            per_page: number;
            to: number | null;
            total: number;
        };
        /**
         * @example {
         *       "id": 6,
         *       "type": "enrolments",
         *       "format": "csv",
         *       "status": "available",
         *       "parameters": {
         *         "from": "2026-11-01",
         *         "to": "2026-11-23"
         *       },
         *       "progress": 100,
         *       "row_count": 212,
         *       "size": 28415,
         *       "sha256": "3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6",
         *       "failure_reason": null,
         *       "download_path": "/api/v1/reports/6/download",
         *       "generated_at": "2026-11-23T16:20:04.228Z",
         *       "available_at": "2026-11-23T16:20:04.377Z",
         *       "expires_at": "2026-11-30T16:20:04.377Z",
         *       "expired_at": null,
         *       "failed_at": null,
         *       "created_at": "2026-11-23T16:20:01.950Z",
         *       "updated_at": "2026-11-23T16:20:04.377Z"
         *     }
         */
        Report: {
            id: number;
            /**
             * @description What the report lists.
             * @enum {string}
             */
            type: "enrolments" | "completions" | "certificates_issued" | "attendance" | "session_capacity";
            /**
             * @description `csv` (UTF-8, RFC 4180) or `xlsx`.
             * @enum {string}
             */
            format: "csv" | "xlsx";
            /**
             * @description `requested` → `generating` → `generated` (rows written) → `stored` (file kept) → `available` (downloadable) → `expired` (file removed after the type’s expiry days); or `failed`, with `failure_reason`.
             * @enum {string}
             */
            status: "requested" | "generating" | "generated" | "stored" | "available" | "expired" | "failed";
            parameters: {
                /** @description Only this course (by id). */
                course_id?: number;
                /** @description Only this session. */
                session_id?: number;
                /** @description Enrolment status, or session workflow state. */
                status?: string;
                /**
                 * Format: date
                 * @description From this day (inclusive, UTC).
                 */
                from?: string;
                /**
                 * Format: date
                 * @description To this day (inclusive, UTC).
                 */
                to?: string;
            };
            /** @description Percent of the rows written so far. */
            progress: number;
            /** @description Rows written so far (while generating), then in all. */
            row_count: number | null;
            /** @description Bytes of the file, once stored. */
            size: number | null;
            /** @description Hex SHA-256 of the file, once stored. */
            sha256: string | null;
            failure_reason: string | null;
            /** @description Where the file is read once `available` (GET, reports:read). */
            download_path: string | null;
            /**
             * Format: date-time
             * @description When the rows were written.
             */
            generated_at: string | null;
            /**
             * Format: date-time
             * @description When it became available.
             */
            available_at: string | null;
            /**
             * Format: date-time
             * @description When the expiry task removes it.
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description When it expired.
             */
            expired_at: string | null;
            /**
             * Format: date-time
             * @description When generation failed.
             */
            failed_at: string | null;
            /**
             * Format: date-time
             * @description When it was requested.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change (progress included).
             */
            updated_at: string;
        };
        /**
         * @description A page of Report items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 6,
         *           "type": "enrolments",
         *           "format": "csv",
         *           "status": "available",
         *           "parameters": {
         *             "from": "2026-11-01",
         *             "to": "2026-11-23"
         *           },
         *           "progress": 100,
         *           "row_count": 212,
         *           "size": 28415,
         *           "sha256": "3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6",
         *           "failure_reason": null,
         *           "download_path": "/api/v1/reports/6/download",
         *           "generated_at": "2026-11-23T16:20:04.228Z",
         *           "available_at": "2026-11-23T16:20:04.377Z",
         *           "expires_at": "2026-11-30T16:20:04.377Z",
         *           "expired_at": null,
         *           "failed_at": null,
         *           "created_at": "2026-11-23T16:20:01.950Z",
         *           "updated_at": "2026-11-23T16:20:04.377Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/reports?page=1&per_page=15",
         *         "last": "/api/v1/reports?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/reports?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/reports",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        ReportList: {
            data: components["schemas"]["Report"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "type": "enrolments",
         *       "format": "csv",
         *       "parameters": {
         *         "from": "2026-11-01",
         *         "to": "2026-11-23"
         *       }
         *     }
         */
        ReportRequest: {
            /**
             * @description What to list.
             * @enum {string}
             */
            type: "enrolments" | "completions" | "certificates_issued" | "attendance" | "session_capacity";
            /**
             * @description Default `csv`.
             * @enum {string}
             */
            format?: "csv" | "xlsx";
            parameters?: {
                /** @description Only this course (by id). */
                course_id?: number;
                /** @description Only this session. */
                session_id?: number;
                /** @description Enrolment status, or session workflow state. */
                status?: string;
                /**
                 * Format: date
                 * @description From this day (inclusive, UTC).
                 */
                from?: string;
                /**
                 * Format: date
                 * @description To this day (inclusive, UTC).
                 */
                to?: string;
            };
        };
        /**
         * @example {
         *       "total": 1,
         *       "total_capped": false,
         *       "items": [
         *         {
         *           "id": 3,
         *           "type": "course",
         *           "title": "Project Management Fundamentals",
         *           "path": "/api/v1/courses/project-management-fundamentals",
         *           "slug": "project-management-fundamentals",
         *           "code": "PM-101",
         *           "status": "published"
         *         }
         *       ],
         *       "restricted": false
         *     }
         */
        SearchGroupResult: {
            /** @description How many items of this group match, counted up to 1000: exact when `total_capped` is false; 1000 when more match. */
            total: number;
            /** @description True when more than 1000 items of this group match: `total` is then 1000, and a longer `q` narrows them. False when `total` is exact. */
            total_capped: boolean;
            /** @description The first `limit` of them, by id (newest first for notifications, documents and reports), courses by title. Among every match, not only the counted ones. */
            items: components["schemas"]["SearchHit"][];
            /** @description True when the token lacks a read scope the group needs: the group was not searched, and is empty (`total` 0, no items) whatever matches. False otherwise. */
            restricted: boolean;
        };
        /**
         * @description One item found. Each group adds details of its own (e.g. a student’s `email`, a session’s `course`).
         * @example {
         *       "id": 3,
         *       "type": "course",
         *       "title": "Project Management Fundamentals",
         *       "path": "/api/v1/courses/project-management-fundamentals",
         *       "slug": "project-management-fundamentals",
         *       "code": "PM-101",
         *       "status": "published"
         *     }
         */
        SearchHit: {
            /** @description The id of the item (a number for every group so far). */
            id: number | string;
            /** @description What the item is, singular: `student`, `course`, `session`, … */
            type: string;
            /** @description What to show for it: a name, a title, a number. */
            title: string;
            /** @description Its path from the server root, which a `GET` reads, e.g. `/api/v1/students/7`. */
            path: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description Every group by name, always all of them; a group without matches, or `restricted` for the token, has `total` 0 and no items.
         * @example {
         *       "assessments": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "certificates": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "courses": {
         *         "total": 1,
         *         "total_capped": false,
         *         "items": [
         *           {
         *             "id": 3,
         *             "type": "course",
         *             "title": "Project Management Fundamentals",
         *             "path": "/api/v1/courses/project-management-fundamentals",
         *             "slug": "project-management-fundamentals",
         *             "code": "PM-101",
         *             "status": "published"
         *           }
         *         ],
         *         "restricted": false
         *       },
         *       "documents": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "enrolments": {
         *         "total": 1,
         *         "total_capped": false,
         *         "items": [
         *           {
         *             "id": 27,
         *             "type": "enrolment",
         *             "title": "Aoife Nowak, Project Management Fundamentals",
         *             "path": "/api/v1/enrolments/27",
         *             "student_id": 30,
         *             "course": "project-management-fundamentals",
         *             "session_id": 3,
         *             "status": "confirmed"
         *           }
         *         ],
         *         "restricted": false
         *       },
         *       "meetings": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "notifications": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": true
         *       },
         *       "reports": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "resources": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "sessions": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "students": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       },
         *       "users": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": true
         *       },
         *       "workflows": {
         *         "total": 0,
         *         "total_capped": false,
         *         "items": [],
         *         "restricted": false
         *       }
         *     }
         */
        SearchResults: {
            assessments: components["schemas"]["SearchGroupResult"];
            certificates: components["schemas"]["SearchGroupResult"];
            courses: components["schemas"]["SearchGroupResult"];
            documents: components["schemas"]["SearchGroupResult"];
            enrolments: components["schemas"]["SearchGroupResult"];
            meetings: components["schemas"]["SearchGroupResult"];
            notifications: components["schemas"]["SearchGroupResult"];
            reports: components["schemas"]["SearchGroupResult"];
            resources: components["schemas"]["SearchGroupResult"];
            sessions: components["schemas"]["SearchGroupResult"];
            students: components["schemas"]["SearchGroupResult"];
            users: components["schemas"]["SearchGroupResult"];
            workflows: components["schemas"]["SearchGroupResult"];
        };
        /**
         * @example {
         *       "id": 3,
         *       "course_id": 3,
         *       "course": "project-management-fundamentals",
         *       "name": "Autumn cohort",
         *       "workflow_state": "open_for_registration",
         *       "max_participants": 24,
         *       "waitlist_enabled": true,
         *       "registration_opens_at": "2026-09-01T08:00:00.000Z",
         *       "registration_closes_at": "2026-12-04T17:00:00.000Z",
         *       "registration_status": "open",
         *       "registration_open": true,
         *       "starts_on": "2026-12-07",
         *       "ends_on": "2026-12-09",
         *       "instructor_name": "Priya Natarajan",
         *       "confirmed_count": 21,
         *       "waitlisted_count": 0,
         *       "available_seats": 3,
         *       "capacity_status": "available",
         *       "completion_rate": null,
         *       "created_at": "2026-08-14T10:00:00.000Z",
         *       "updated_at": "2026-11-20T16:41:09.207Z"
         *     }
         */
        Session: {
            id: number;
            course_id: number;
            /** @description The slug of the course this session delivers. */
            course: string;
            /** @description The intake’s name, e.g. "January 2027 (Berlin)". */
            name: string;
            /**
             * @description draft → scheduled → open_for_registration → in_progress → completed; `cancelled` from any state but those two, only by an administrator. The moves after `scheduled` are also made automatically from the registration opening time and the start and end dates (in the organization’s time zone).
             * @enum {string}
             */
            workflow_state: "draft" | "scheduled" | "open_for_registration" | "in_progress" | "completed" | "cancelled";
            /** @description Seats: the most confirmed enrolments the session takes. */
            max_participants: number;
            /** @description Whether enrolments beyond the seats join a waitlist (else they are refused). */
            waitlist_enabled: boolean;
            /**
             * Format: date-time
             * @description When registration opens; null: as soon as the session is open for registration.
             */
            registration_opens_at: string | null;
            /**
             * Format: date-time
             * @description When registration closes; null: open until the session starts (`in_progress`).
             */
            registration_closes_at: string | null;
            /**
             * @description `open` only while `workflow_state` is `open_for_registration` and now is inside the registration window (`registration_opens_at` ≤ now < `registration_closes_at`, an absent bound being no bound); `not_open` before the window, and in `draft` and `scheduled`; `closed` after the window and in `in_progress`, `completed` and `cancelled`.
             * @enum {string}
             */
            registration_status: "not_open" | "open" | "closed";
            /** @description Whether `registration_status` is `open`. */
            registration_open: boolean;
            /**
             * Format: date
             * @description First day of the session.
             */
            starts_on: string;
            /**
             * Format: date
             * @description Last day of the session.
             */
            ends_on: string;
            /** @description Who teaches the session. */
            instructor_name: string | null;
            /** @description Confirmed enrolments. */
            confirmed_count: number;
            /** @description Enrolments on the waitlist. */
            waitlisted_count: number;
            /** @description `max_participants` − `confirmed_count`, never below 0. */
            available_seats: number;
            /**
             * @description `available` while seats remain; otherwise `waitlist` when the waitlist is enabled, else `full`.
             * @enum {string}
             */
            capacity_status: "available" | "full" | "waitlist";
            /** @description Percentage (one decimal) of confirmed enrolments with a recorded completion (any outcome); null while there are no confirmed enrolments. */
            completion_rate: number | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change, including a change of its enrolment counts.
             */
            updated_at: string;
        };
        /**
         * @description A page of Session items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 3,
         *           "course_id": 3,
         *           "course": "project-management-fundamentals",
         *           "name": "Autumn cohort",
         *           "workflow_state": "open_for_registration",
         *           "max_participants": 24,
         *           "waitlist_enabled": true,
         *           "registration_opens_at": "2026-09-01T08:00:00.000Z",
         *           "registration_closes_at": "2026-12-04T17:00:00.000Z",
         *           "registration_status": "open",
         *           "registration_open": true,
         *           "starts_on": "2026-12-07",
         *           "ends_on": "2026-12-09",
         *           "instructor_name": "Priya Natarajan",
         *           "confirmed_count": 21,
         *           "waitlisted_count": 0,
         *           "available_seats": 3,
         *           "capacity_status": "available",
         *           "completion_rate": null,
         *           "created_at": "2026-08-14T10:00:00.000Z",
         *           "updated_at": "2026-11-20T16:41:09.207Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/courses/project-management-fundamentals/sessions?page=1&per_page=15",
         *         "last": "/api/v1/courses/project-management-fundamentals/sessions?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/courses/project-management-fundamentals/sessions?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/courses/project-management-fundamentals/sessions",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        SessionList: {
            data: components["schemas"]["Session"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 30,
         *       "name": "Aoife Nowak",
         *       "email": "aoife.nowak@mail.example",
         *       "email_verified": true,
         *       "courses": [
         *         "project-management-fundamentals"
         *       ],
         *       "created_at": "2026-04-11T08:23:51.092Z",
         *       "updated_at": "2026-09-03T10:15:02.664Z"
         *     }
         */
        Student: {
            id: number;
            /** @description Full name. */
            name: string;
            /** @description Stored trimmed, lowercased and NFC-normalised; unique in that form across students and staff. Checked as a staff user’s email is (`UserCreate.email`), so not always of the strict `email` format. */
            email: string;
            /** @description Whether the student has confirmed the email address (the `status` filter). */
            email_verified: boolean;
            /** @description Slugs of the courses the student has applied to, in alphabetical order (at least one). */
            courses: string[];
            /**
             * Format: date-time
             * @description When the user was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change of the student, including a new course application.
             */
            updated_at: string;
        };
        /**
         * @description A page of Student items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 30,
         *           "name": "Aoife Nowak",
         *           "email": "aoife.nowak@mail.example",
         *           "email_verified": true,
         *           "courses": [
         *             "project-management-fundamentals"
         *           ],
         *           "created_at": "2026-04-11T08:23:51.092Z",
         *           "updated_at": "2026-09-03T10:15:02.664Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/students?page=1&per_page=15",
         *         "last": "/api/v1/students?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/students?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/students",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        StudentList: {
            data: components["schemas"]["Student"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 2,
         *       "task_type": "health.run_checks",
         *       "name": "Run health checks",
         *       "description": "Runs every enabled health check and sends an alert when one fails.",
         *       "cron": "*\/5 * * * *",
         *       "timezone": "Europe/London",
         *       "enabled": true,
         *       "next_run_at": "2026-11-24T03:05:00.000Z",
         *       "last_run_at": "2026-11-24T03:00:00.034Z",
         *       "last_outcome": "succeeded",
         *       "last_error": null,
         *       "last_duration_ms": 57,
         *       "created_at": "2026-01-05T09:00:00.000Z",
         *       "updated_at": "2026-11-24T03:00:00.091Z"
         *     }
         */
        Task: {
            id: number;
            /**
             * @description What the task does; one task per type.
             * @enum {string}
             */
            task_type: "audit.purge" | "health.run_checks" | "idempotency.prune" | "jobs.prune_failed" | "reports.expire" | "sessions.advance" | "students.split_marks";
            name: string;
            description: string;
            /** @description Five-field cron expression, read in `timezone`. */
            cron: string;
            /** @description The organization's IANA time zone, in which `cron` is read. */
            timezone: string;
            /** @description A disabled task is not scheduled and cannot be run. */
            enabled: boolean;
            /**
             * Format: date-time
             * @description When the scheduler queues the next run; null while disabled or not yet scheduled.
             */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description When the latest finished run started.
             */
            last_run_at: string | null;
            /**
             * @description Outcome of the latest finished run.
             * @enum {string|null}
             */
            last_outcome: "succeeded" | "failed" | null;
            /** @description Why the latest run failed. */
            last_error: string | null;
            /** @description How long the latest run took. */
            last_duration_ms: number | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
        };
        /**
         * @example {
         *       "id": 2,
         *       "task_type": "health.run_checks",
         *       "name": "Run health checks",
         *       "description": "Runs every enabled health check and sends an alert when one fails.",
         *       "cron": "*\/5 * * * *",
         *       "timezone": "Europe/London",
         *       "enabled": true,
         *       "next_run_at": "2026-11-24T03:05:00.000Z",
         *       "last_run_at": "2026-11-24T03:00:00.034Z",
         *       "last_outcome": "succeeded",
         *       "last_error": null,
         *       "last_duration_ms": 57,
         *       "created_at": "2026-01-05T09:00:00.000Z",
         *       "updated_at": "2026-11-24T03:00:00.091Z",
         *       "recent_runs": [
         *         {
         *           "id": 118,
         *           "task_id": 2,
         *           "trigger": "schedule",
         *           "status": "succeeded",
         *           "scheduled_for": "2026-11-24T03:00:00.000Z",
         *           "queued_at": "2026-11-24T03:00:00.012Z",
         *           "started_at": "2026-11-24T03:00:00.034Z",
         *           "finished_at": "2026-11-24T03:00:00.091Z",
         *           "duration_ms": 57,
         *           "error": null
         *         }
         *       ]
         *     }
         */
        TaskDetail: {
            id: number;
            /**
             * @description What the task does; one task per type.
             * @enum {string}
             */
            task_type: "audit.purge" | "health.run_checks" | "idempotency.prune" | "jobs.prune_failed" | "reports.expire" | "sessions.advance" | "students.split_marks";
            name: string;
            description: string;
            /** @description Five-field cron expression, read in `timezone`. */
            cron: string;
            /** @description The organization's IANA time zone, in which `cron` is read. */
            timezone: string;
            /** @description A disabled task is not scheduled and cannot be run. */
            enabled: boolean;
            /**
             * Format: date-time
             * @description When the scheduler queues the next run; null while disabled or not yet scheduled.
             */
            next_run_at: string | null;
            /**
             * Format: date-time
             * @description When the latest finished run started.
             */
            last_run_at: string | null;
            /**
             * @description Outcome of the latest finished run.
             * @enum {string|null}
             */
            last_outcome: "succeeded" | "failed" | null;
            /** @description Why the latest run failed. */
            last_error: string | null;
            /** @description How long the latest run took. */
            last_duration_ms: number | null;
            /**
             * Format: date-time
             * @description Creation time.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             */
            updated_at: string;
            /** @description The latest runs (up to 10), newest first. */
            recent_runs: components["schemas"]["TaskRun"][];
        };
        /**
         * @description A page of Task items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 2,
         *           "task_type": "health.run_checks",
         *           "name": "Run health checks",
         *           "description": "Runs every enabled health check and sends an alert when one fails.",
         *           "cron": "*\/5 * * * *",
         *           "timezone": "Europe/London",
         *           "enabled": true,
         *           "next_run_at": "2026-11-24T03:05:00.000Z",
         *           "last_run_at": "2026-11-24T03:00:00.034Z",
         *           "last_outcome": "succeeded",
         *           "last_error": null,
         *           "last_duration_ms": 57,
         *           "created_at": "2026-01-05T09:00:00.000Z",
         *           "updated_at": "2026-11-24T03:00:00.091Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/tasks?page=1&per_page=15",
         *         "last": "/api/v1/tasks?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/tasks?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/tasks",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        TaskList: {
            data: components["schemas"]["Task"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 118,
         *       "task_id": 2,
         *       "trigger": "schedule",
         *       "status": "succeeded",
         *       "scheduled_for": "2026-11-24T03:00:00.000Z",
         *       "queued_at": "2026-11-24T03:00:00.012Z",
         *       "started_at": "2026-11-24T03:00:00.034Z",
         *       "finished_at": "2026-11-24T03:00:00.091Z",
         *       "duration_ms": 57,
         *       "error": null
         *     }
         */
        TaskRun: {
            id: number;
            task_id: number;
            /**
             * @description `schedule` (the cron timer) or `manual` (POST /tasks/{task}/run).
             * @enum {string}
             */
            trigger: "schedule" | "manual";
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /**
             * Format: date-time
             * @description The cron time this run is for; null for a manual run.
             */
            scheduled_for: string | null;
            /**
             * Format: date-time
             * @description When the run was queued.
             */
            queued_at: string;
            /**
             * Format: date-time
             * @description When a worker started the run.
             */
            started_at: string | null;
            /**
             * Format: date-time
             * @description When the run finished.
             */
            finished_at: string | null;
            duration_ms: number | null;
            /** @description Why the run failed. */
            error: string | null;
        };
        /**
         * @example {
         *       "id": 4,
         *       "name": "Daniel Okafor",
         *       "email": "daniel.okafor@northwind-academy.example",
         *       "job_title": "Course coordinator",
         *       "status": "active",
         *       "roles": [
         *         "coordinator"
         *       ],
         *       "permissions": [
         *         "courses.approve"
         *       ],
         *       "effective_permissions": [
         *         "catalogue.manage",
         *         "courses.approve",
         *         "documents.manage",
         *         "reports.manage"
         *       ],
         *       "invited_at": "2026-02-02T09:30:00.000Z",
         *       "activated_at": "2026-02-03T08:12:44.120Z",
         *       "suspended_at": null,
         *       "archived_at": null,
         *       "created_at": "2026-02-02T09:30:00.000Z",
         *       "updated_at": "2026-02-03T08:12:44.120Z"
         *     }
         */
        User: {
            id: number;
            /** @description Full name. */
            name: string;
            /** @description Stored trimmed, lowercased and NFC-normalised; unique in that form across every user, students included. Not always of the strict `email` format (e.g. `taro.@example.jp`): see `UserCreate.email` for the rules. */
            email: string;
            job_title: string | null;
            /**
             * @description Lifecycle: `draft` (created, nothing sent) → `invited` (invitation emailed) → `active` (accepted) ⇄ `suspended`; `archived` from any other state, final.
             * @enum {string}
             */
            status: "draft" | "invited" | "active" | "suspended" | "archived";
            /** @description Roles held (`administrator`, `registrar`, `coordinator`, `approver`, `viewer`), each a set of permissions. Read-only: granted by a holder of `users.manage` (`academy admin users grant`, the console). */
            roles: ("administrator" | "registrar" | "coordinator" | "approver" | "viewer")[];
            /** @description Permissions granted directly, beside those of the roles. Read-only, granted as `roles` are. */
            permissions: ("audit.read" | "catalogue.manage" | "certificates.manage" | "courses.approve" | "documents.approve" | "documents.manage" | "enrolments.manage" | "integrations.manage" | "operations.manage" | "reports.manage" | "students.manage" | "users.manage")[];
            /** @description What the user may change: the permissions of their roles and those granted directly, sorted. A token that acts for the user may change only what these allow, whatever its scopes (a 403 `permission_denied` otherwise). */
            effective_permissions: ("audit.read" | "catalogue.manage" | "certificates.manage" | "courses.approve" | "documents.approve" | "documents.manage" | "enrolments.manage" | "integrations.manage" | "operations.manage" | "reports.manage" | "students.manage" | "users.manage")[];
            /**
             * Format: date-time
             * @description When the user was invited.
             */
            invited_at: string | null;
            /**
             * Format: date-time
             * @description When the user first became active (accepted the invitation).
             */
            activated_at: string | null;
            /**
             * Format: date-time
             * @description When the user was suspended; null unless `suspended`.
             */
            suspended_at: string | null;
            /**
             * Format: date-time
             * @description When the user was archived.
             */
            archived_at: string | null;
            /**
             * Format: date-time
             * @description When the user was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change, lifecycle moves included.
             */
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Daniel Okafor",
         *       "email": "daniel.okafor@northwind-academy.example",
         *       "job_title": "Course coordinator"
         *     }
         */
        UserCreate: {
            /**
             * Format: line
             * @description Full name (one line).
             */
            name: string;
            /**
             * Format: email-address
             * @description Trimmed, lowercased and NFC-normalised, then stored and compared in that form: unique across every user (staff and students), so another letter case or a decomposed `é` is the same address. One `@`, a dot in the domain, at most 254 characters. A 422 on `email`: control or invisible format characters (e.g. U+200B, U+200D, U+00AD), spaces, angle brackets, quotes (the apostrophe is allowed), fullwidth or other compatibility characters, or a trailing dot.
             */
            email: string;
            /**
             * Format: line
             * @description One line; null for none.
             */
            job_title?: string | null;
        };
        /**
         * @description A page of User items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 4,
         *           "name": "Daniel Okafor",
         *           "email": "daniel.okafor@northwind-academy.example",
         *           "job_title": "Course coordinator",
         *           "status": "active",
         *           "roles": [
         *             "coordinator"
         *           ],
         *           "permissions": [
         *             "courses.approve"
         *           ],
         *           "effective_permissions": [
         *             "catalogue.manage",
         *             "courses.approve",
         *             "documents.manage",
         *             "reports.manage"
         *           ],
         *           "invited_at": "2026-02-02T09:30:00.000Z",
         *           "activated_at": "2026-02-03T08:12:44.120Z",
         *           "suspended_at": null,
         *           "archived_at": null,
         *           "created_at": "2026-02-02T09:30:00.000Z",
         *           "updated_at": "2026-02-03T08:12:44.120Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/users?page=1&per_page=15",
         *         "last": "/api/v1/users?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/users?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/users",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        UserList: {
            data: components["schemas"]["User"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "job_title": "Senior course coordinator"
         *     }
         */
        UserPatch: {
            /**
             * Format: line
             * @description Full name (one line).
             */
            name?: string;
            /**
             * Format: email-address
             * @description Trimmed, lowercased and NFC-normalised, then stored and compared in that form: unique across every user (staff and students), so another letter case or a decomposed `é` is the same address. One `@`, a dot in the domain, at most 254 characters. A 422 on `email`: control or invisible format characters (e.g. U+200B, U+200D, U+00AD), spaces, angle brackets, quotes (the apostrophe is allowed), fullwidth or other compatibility characters, or a trailing dot.
             */
            email?: string;
            /**
             * Format: line
             * @description One line; null for none.
             */
            job_title?: string | null;
        };
        /**
         * @example {
         *       "from_state": "pending",
         *       "to_state": "in_review",
         *       "decided_by": {
         *         "id": 4,
         *         "name": "Daniel Okafor"
         *       },
         *       "comment": "Syllabus and pricing checked; over to the review board.",
         *       "decided_at": "2026-02-12T14:05:31.000Z"
         *     }
         */
        WorkflowDecision: {
            from_state: string;
            to_state: string;
            decided_by: components["schemas"]["WorkflowUser"];
            comment: string | null;
            /**
             * Format: date-time
             * @description When the decision was recorded.
             */
            decided_at: string;
        };
        /**
         * @example {
         *       "id": 3,
         *       "workflow": "course_approval",
         *       "state": "in_review",
         *       "subject_type": "course",
         *       "subject_id": 3,
         *       "assignee": {
         *         "id": 4,
         *         "name": "Daniel Okafor"
         *       },
         *       "approval_policy": {
         *         "required_permission": "courses.approve"
         *       },
         *       "allowed_transitions": [
         *         "approved",
         *         "rejected"
         *       ],
         *       "decisions": [
         *         {
         *           "from_state": "pending",
         *           "to_state": "in_review",
         *           "decided_by": {
         *             "id": 4,
         *             "name": "Daniel Okafor"
         *           },
         *           "comment": "Syllabus and pricing checked; over to the review board.",
         *           "decided_at": "2026-02-12T14:05:31.000Z"
         *         }
         *       ],
         *       "created_at": "2026-02-10T10:00:00.000Z",
         *       "updated_at": "2026-02-12T14:05:31.000Z"
         *     }
         */
        WorkflowInstance: {
            id: number;
            /**
             * @description The key of the workflow definition.
             * @enum {string}
             */
            workflow: "course_approval" | "document_approval";
            /** @description The current state, one of the definition’s states. */
            state: string;
            /** @description What the instance is about, e.g. `course`. */
            subject_type: string | null;
            /** @description The id of the subject. */
            subject_id: number | null;
            /** @description The staff user assigned to decide, if any. */
            assignee: components["schemas"]["WorkflowUser"] | null;
            /** @description Who may decide. */
            approval_policy: {
                /** @description The permission the acting user needs to transition or assign an instance of this workflow. */
                required_permission: string;
            };
            /** @description The states reachable from the current one (empty once the instance is finished). */
            allowed_transitions: string[];
            /** @description Every transition recorded, oldest first. */
            decisions: components["schemas"]["WorkflowDecision"][];
            /**
             * Format: date-time
             * @description When the instance was opened.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change: a transition or an assignment.
             */
            updated_at: string;
        };
        /**
         * @description A page of WorkflowInstance items, with links to the other pages.
         * @example {
         *       "data": [
         *         {
         *           "id": 3,
         *           "workflow": "course_approval",
         *           "state": "in_review",
         *           "subject_type": "course",
         *           "subject_id": 3,
         *           "assignee": {
         *             "id": 4,
         *             "name": "Daniel Okafor"
         *           },
         *           "approval_policy": {
         *             "required_permission": "courses.approve"
         *           },
         *           "allowed_transitions": [
         *             "approved",
         *             "rejected"
         *           ],
         *           "decisions": [
         *             {
         *               "from_state": "pending",
         *               "to_state": "in_review",
         *               "decided_by": {
         *                 "id": 4,
         *                 "name": "Daniel Okafor"
         *               },
         *               "comment": "Syllabus and pricing checked; over to the review board.",
         *               "decided_at": "2026-02-12T14:05:31.000Z"
         *             }
         *           ],
         *           "created_at": "2026-02-10T10:00:00.000Z",
         *           "updated_at": "2026-02-12T14:05:31.000Z"
         *         }
         *       ],
         *       "links": {
         *         "first": "/api/v1/workflows?page=1&per_page=15",
         *         "last": "/api/v1/workflows?page=2&per_page=15",
         *         "prev": null,
         *         "next": "/api/v1/workflows?page=2&per_page=15"
         *       },
         *       "meta": {
         *         "current_page": 1,
         *         "from": 1,
         *         "last_page": 2,
         *         "path": "/api/v1/workflows",
         *         "per_page": 15,
         *         "to": 15,
         *         "total": 27
         *       }
         *     }
         */
        WorkflowInstanceList: {
            data: components["schemas"]["WorkflowInstance"][];
            links: components["schemas"]["PaginationLinks"];
            meta: components["schemas"]["PaginationMeta"];
        };
        /**
         * @example {
         *       "id": 4,
         *       "name": "Daniel Okafor"
         *     }
         */
        WorkflowUser: {
            id: number;
            name: string;
        };
    };
    responses: {
        /** @description The resource state does not allow this: `idempotency_key_in_use`, `idempotency_key_answer_lost`. */
        IdempotencyKeyInUseOrIdempotencyKeyAnswerLost: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "idempotency_key_in_use" | "idempotency_key_answer_lost";
                };
            };
        };
        /** @description The token lacks the scope, or the acting user a permission: `insufficient_scope`. */
        InsufficientScope: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "insufficient_scope";
                };
            };
        };
        /** @description The token lacks the scope, or the acting user a permission: `insufficient_scope`, `permission_denied`. */
        InsufficientScopeOrPermissionDenied: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "insufficient_scope" | "permission_denied";
                };
            };
        };
        /** @description The resource state does not allow this: `invalid_transition`. */
        InvalidTransition: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "invalid_transition";
                };
            };
        };
        /** @description The resource state does not allow this: `invalid_transition`, `conflict`, `idempotency_key_in_use`, `idempotency_key_answer_lost`. */
        InvalidTransitionOrConflictOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "invalid_transition" | "conflict" | "idempotency_key_in_use" | "idempotency_key_answer_lost";
                };
            };
        };
        /** @description The resource state does not allow this: `invalid_transition`, `idempotency_key_in_use`, `idempotency_key_answer_lost`. */
        InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "invalid_transition" | "idempotency_key_in_use" | "idempotency_key_answer_lost";
                };
            };
        };
        /** @description Malformed request: `malformed_request`. */
        MalformedRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "malformed_request";
                };
            };
        };
        /** @description No such resource: `not_found`. */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "not_found";
                };
            };
        };
        /** @description Not modified: the `If-None-Match` ETag matches; no body. */
        NotModified: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                ETag: components["headers"]["ETag"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Not modified: the `If-None-Match` ETag matches; no body. */
        NotModifiedUnmetered: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The resource state does not allow this: `not_retryable`, `idempotency_key_in_use`, `idempotency_key_answer_lost`. */
        NotRetryableOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "not_retryable" | "idempotency_key_in_use" | "idempotency_key_answer_lost";
                };
            };
        };
        /** @description Payload too large: `payload_too_large`. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "payload_too_large";
                };
            };
        };
        /** @description The resource changed since the `If-Match` version: `precondition_failed`. */
        PreconditionFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "precondition_failed";
                };
            };
        };
        /** @description Range not satisfiable: `range_not_satisfiable`. */
        RangeNotSatisfiable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "range_not_satisfiable";
                };
            };
        };
        /** @description Rate limit exceeded; retry after `Retry-After` seconds: `rate_limited`. */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "rate_limited";
                };
            };
        };
        /** @description The resource state does not allow this: `report_not_available`. */
        ReportNotAvailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "report_not_available";
                };
            };
        };
        /** @description The resource state does not allow this: `task_disabled`, `idempotency_key_in_use`, `idempotency_key_answer_lost`. */
        TaskDisabledOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "task_disabled" | "idempotency_key_in_use" | "idempotency_key_answer_lost";
                };
            };
        };
        /** @description No token, or an unknown, expired or revoked token: `unauthenticated`. */
        Unauthenticated: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "unauthenticated";
                };
            };
        };
        /** @description Unsupported media type: `unsupported_media_type`. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "unsupported_media_type";
                };
            };
        };
        /** @description Invalid input, with messages keyed by field: `validation_failed`. */
        ValidationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "validation_failed";
                };
            };
        };
        /** @description Invalid input, with messages keyed by field: `validation_failed`, `idempotency_key_reused`. */
        ValidationFailedOrIdempotencyKeyReused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {string} */
                    code?: "validation_failed" | "idempotency_key_reused";
                };
            };
        };
    };
    parameters: {
        /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
        IdempotencyKey: string;
        /** @description The `ETag` of the version the change is based on, as a `GET` gave it, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when the resource has changed since, the answer is a 412 `precondition_failed` and nothing is written. Without it, the change applies to the current version. */
        IfMatch: string;
        /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
        IfNoneMatch: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Answers depend on the token: `private, no-cache` (a shared cache must not keep them, a private one must revalidate).
         * @example private, no-cache
         */
        "Cache-Control": string;
        /**
         * @description A strong validator of the exact body; send it back in `If-None-Match` to get a 304 when nothing changed.
         * @example "q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"
         */
        ETag: string;
        /**
         * @description Present on a response replayed for a repeated `Idempotency-Key`.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description RFC 8288 links of the list: `first`, `last`, and `prev` / `next` where they exist (the same as `links` in the body); on a deprecated version also its `deprecation` and `sunset` documentation.
         * @example </api/v1/courses?page=1&per_page=15>; rel="first", </api/v1/courses?page=2&per_page=15>; rel="last", </api/v1/courses?page=2&per_page=15>; rel="next"
         */
        Link: string;
        /**
         * @description The path of the created or queued resource.
         * @example /api/v1/reports/6
         */
        Location: string;
        /**
         * @description The remaining quota of the policy and the seconds until its window resets (draft-ietf-httpapi-ratelimit-headers-11).
         * @example "default";r=117;t=42
         */
        RateLimit: string;
        /**
         * @description The quota policy: `default` (per token), `public` (certificate verification, per client address) or `anonymous` (requests without a valid token, per client address).
         * @example "default";q=120;w=60
         */
        "RateLimit-Policy": string;
        /**
         * @description Seconds to wait before retrying.
         * @example 42
         */
        "Retry-After": number;
        /**
         * @description The Bearer challenge: `error="invalid_token"` when a token was sent, `error="insufficient_scope", scope="…"` when it lacks the scope.
         * @example Bearer realm="academy", error="invalid_token"
         */
        "WWW-Authenticate": string;
        /**
         * @description Requests allowed per window.
         * @example 120
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 117
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description When the current window resets, in Unix time (seconds).
         * @example 1795496442
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Identifies the request in the server logs: the client’s own `X-Request-Id` when it is sane (1–128 of `A-Za-z0-9._:-`), otherwise a new UUID.
         * @example 0f6b7e8e-3c1a-4d52-9a7e-2b9f4e1c6d30
         */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listApiVersions: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "version": "v1",
                     *           "status": "active",
                     *           "released_at": "2026-11-22",
                     *           "deprecated_at": null,
                     *           "sunset_at": null,
                     *           "documentation": "/docs"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            version: string;
                            /** @enum {string} */
                            status: "active" | "deprecated" | "sunset";
                            released_at: string | null;
                            deprecated_at: string | null;
                            sunset_at: string | null;
                            /** @description The documentation of the version: an absolute URL, or a path on this server, which the `Link` headers give as it is (relative) unless the deployment sets its public URL (`ACADEMY_PUBLIC_URL`). */
                            documentation: string;
                        }[];
                    };
                };
            };
            304: components["responses"]["NotModifiedUnmetered"];
            400: components["responses"]["MalformedRequest"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "occurred_at";
                /** @description Sort direction (default `desc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only changes by this kind of actor. */
                actor_type?: "user" | "token" | "operator" | "system";
                /** @description Only changes by this token or user (with `actor_type`). */
                actor_id?: number;
                /** @description Only this action, e.g. `enrolment.cancelled`. */
                action?: string;
                /** @description Only changes of this kind of record, e.g. `course`. */
                subject_type?: string;
                /** @description Only changes of the record with this id (with `subject_type`). */
                subject_id?: number;
                /** @description Only changes made at or after this RFC 3339 time. */
                since?: string;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 48213,
                     *           "occurred_at": "2026-03-02T10:15:04.118Z",
                     *           "actor_type": "token",
                     *           "actor_id": 7,
                     *           "actor_name": "crm-sync (for Priya Shah)",
                     *           "action": "enrolment.cancelled",
                     *           "subject_type": "enrolment",
                     *           "subject_id": 1042,
                     *           "via": "api",
                     *           "request_id": "f3b9c2d4-6a1e-4c57-9d2b-7e8f0a1b2c3d",
                     *           "ip": "203.0.113.24",
                     *           "changes": {
                     *             "status": [
                     *               "confirmed",
                     *               "cancelled"
                     *             ],
                     *             "cancelled_at": [
                     *               null,
                     *               "2026-03-02T10:15:04.118Z"
                     *             ],
                     *             "cancellation_reason": [
                     *               null,
                     *               "Moved to the April intake"
                     *             ]
                     *           }
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/audit-events?page=1&per_page=15",
                     *         "last": "/api/v1/audit-events?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/audit-events?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/audit-events",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AuditEventList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScopeOrPermissionDenied"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listCertificates: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "issued_at" | "certificate_number" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only certificates of this student. */
                student_id?: number;
                /** @description Only certificates of this course (the course of the session the holder completed). */
                course_id?: number;
                /** @description Only `valid` or only `revoked` certificates. */
                status?: "valid" | "revoked";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 1,
                     *           "certificate_number": "CERT-2026-000001",
                     *           "verification_token": "8aUnXa50TMDAOS4weY5qsOs5a3H653mU",
                     *           "status": "valid",
                     *           "student_id": 24,
                     *           "course_id": 1,
                     *           "course": "advanced-excel",
                     *           "session_id": 1,
                     *           "enrolment_id": 1,
                     *           "issued_at": "2026-05-11T09:00:00.000Z",
                     *           "revoked_at": null,
                     *           "revocation_reason": null,
                     *           "created_at": "2026-05-11T09:00:00.000Z",
                     *           "updated_at": "2026-05-11T09:00:00.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/certificates?page=1&per_page=15",
                     *         "last": "/api/v1/certificates?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/certificates?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/certificates",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CertificateList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    verifyCertificate: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The verification token. */
                certificate: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "holder_name": "Mia Dubois",
                     *         "course_title": "Advanced Excel",
                     *         "issued_on": "2026-05-11",
                     *         "status": "valid",
                     *         "revoked_at": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CertificateVerification"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getCertificate: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                certificate: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 1,
                     *         "certificate_number": "CERT-2026-000001",
                     *         "verification_token": "8aUnXa50TMDAOS4weY5qsOs5a3H653mU",
                     *         "status": "valid",
                     *         "student_id": 24,
                     *         "course_id": 1,
                     *         "course": "advanced-excel",
                     *         "session_id": 1,
                     *         "enrolment_id": 1,
                     *         "issued_at": "2026-05-11T09:00:00.000Z",
                     *         "revoked_at": null,
                     *         "revocation_reason": null,
                     *         "created_at": "2026-05-11T09:00:00.000Z",
                     *         "updated_at": "2026-05-11T09:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Certificate"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listCourses: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "title" | "price" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only published courses, or only courses in every other publication state (draft, review, approved, archived): `true`/`1` or `false`/`0`. */
                active?: "true" | "false" | "1" | "0";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 3,
                     *           "slug": "project-management-fundamentals",
                     *           "code": "PM-101",
                     *           "title": "Project Management Fundamentals",
                     *           "description": "Plan, run and close projects: scope, schedule, risk and stakeholder management, with a PRINCE2-style case study.",
                     *           "price": "450.00",
                     *           "currency": "GBP",
                     *           "language": "en",
                     *           "status": "published",
                     *           "published_at": "2026-03-02T10:00:00.000Z",
                     *           "archived_at": null,
                     *           "created_at": "2026-02-20T10:00:00.000Z",
                     *           "updated_at": "2026-03-02T10:00:00.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/courses?page=1&per_page=15",
                     *         "last": "/api/v1/courses?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/courses?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/courses",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CourseList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 3,
                     *         "slug": "project-management-fundamentals",
                     *         "code": "PM-101",
                     *         "title": "Project Management Fundamentals",
                     *         "description": "Plan, run and close projects: scope, schedule, risk and stakeholder management, with a PRINCE2-style case study.",
                     *         "price": "450.00",
                     *         "currency": "GBP",
                     *         "language": "en",
                     *         "status": "published",
                     *         "published_at": "2026-03-02T10:00:00.000Z",
                     *         "archived_at": null,
                     *         "created_at": "2026-02-20T10:00:00.000Z",
                     *         "updated_at": "2026-03-02T10:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Course"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listCourseSessions: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "starts_on" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 3,
                     *           "course_id": 3,
                     *           "course": "project-management-fundamentals",
                     *           "name": "Autumn cohort",
                     *           "workflow_state": "open_for_registration",
                     *           "max_participants": 24,
                     *           "waitlist_enabled": true,
                     *           "registration_opens_at": "2026-09-01T08:00:00.000Z",
                     *           "registration_closes_at": "2026-12-04T17:00:00.000Z",
                     *           "registration_status": "open",
                     *           "registration_open": true,
                     *           "starts_on": "2026-12-07",
                     *           "ends_on": "2026-12-09",
                     *           "instructor_name": "Priya Natarajan",
                     *           "confirmed_count": 21,
                     *           "waitlisted_count": 0,
                     *           "available_seats": 3,
                     *           "capacity_status": "available",
                     *           "completion_rate": null,
                     *           "created_at": "2026-08-14T10:00:00.000Z",
                     *           "updated_at": "2026-11-20T16:41:09.207Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/courses/project-management-fundamentals/sessions?page=1&per_page=15",
                     *         "last": "/api/v1/courses/project-management-fundamentals/sessions?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/courses/project-management-fundamentals/sessions?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/courses/project-management-fundamentals/sessions",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getCourseSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 3,
                     *         "course_id": 3,
                     *         "course": "project-management-fundamentals",
                     *         "name": "Autumn cohort",
                     *         "workflow_state": "open_for_registration",
                     *         "max_participants": 24,
                     *         "waitlist_enabled": true,
                     *         "registration_opens_at": "2026-09-01T08:00:00.000Z",
                     *         "registration_closes_at": "2026-12-04T17:00:00.000Z",
                     *         "registration_status": "open",
                     *         "registration_open": true,
                     *         "starts_on": "2026-12-07",
                     *         "ends_on": "2026-12-09",
                     *         "instructor_name": "Priya Natarajan",
                     *         "confirmed_count": 21,
                     *         "waitlisted_count": 0,
                     *         "available_seats": 3,
                     *         "capacity_status": "available",
                     *         "completion_rate": null,
                     *         "created_at": "2026-08-14T10:00:00.000Z",
                     *         "updated_at": "2026-11-20T16:41:09.207Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Session"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listSessionAssessments: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "due_at" | "title";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 7,
                     *           "session_id": 3,
                     *           "title": "Final assessment",
                     *           "kind": "exam",
                     *           "due_at": "2026-12-09T15:00:00.000Z",
                     *           "max_score": 100,
                     *           "created_at": "2026-08-14T12:00:00.000Z",
                     *           "updated_at": "2026-08-14T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=1&per_page=15",
                     *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/assessments",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AssessmentList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getSessionAssessment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
                assessment: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 7,
                     *         "session_id": 3,
                     *         "title": "Final assessment",
                     *         "kind": "exam",
                     *         "due_at": "2026-12-09T15:00:00.000Z",
                     *         "max_score": 100,
                     *         "created_at": "2026-08-14T12:00:00.000Z",
                     *         "updated_at": "2026-08-14T12:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Assessment"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listSessionMeetings: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "held_on";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 9,
                     *           "session_id": 3,
                     *           "held_on": "2026-12-07",
                     *           "starts_at": "2026-12-07T09:00:00.000Z",
                     *           "ends_at": "2026-12-07T17:00:00.000Z",
                     *           "location": "Room 2.14, 12 Learning Lane, London EC1A 1AA",
                     *           "status": "Scheduled",
                     *           "effective_status": "scheduled",
                     *           "cancelled_at": null,
                     *           "created_at": "2026-08-14T12:00:00.000Z",
                     *           "updated_at": "2026-08-14T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=1&per_page=15",
                     *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/meetings",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getSessionMeeting: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
                meeting: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 9,
                     *         "session_id": 3,
                     *         "held_on": "2026-12-07",
                     *         "starts_at": "2026-12-07T09:00:00.000Z",
                     *         "ends_at": "2026-12-07T17:00:00.000Z",
                     *         "location": "Room 2.14, 12 Learning Lane, London EC1A 1AA",
                     *         "status": "Scheduled",
                     *         "effective_status": "scheduled",
                     *         "cancelled_at": null,
                     *         "created_at": "2026-08-14T12:00:00.000Z",
                     *         "updated_at": "2026-08-14T12:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Meeting"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listSessionResources: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "title" | "published_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 5,
                     *           "session_id": 3,
                     *           "title": "Course handbook",
                     *           "type": "file",
                     *           "url": "https://northwind-academy.example/handbooks/pm-101.pdf",
                     *           "body": null,
                     *           "status": "published",
                     *           "published_at": "2026-08-14T12:00:00.000Z",
                     *           "created_at": "2026-08-14T12:00:00.000Z",
                     *           "updated_at": "2026-08-14T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=1&per_page=15",
                     *         "last": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/courses/project-management-fundamentals/sessions/3/resources?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/courses/project-management-fundamentals/sessions/3/resources",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["LearningResourceList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getSessionResource: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                course: string;
                session: number;
                resource: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 5,
                     *         "session_id": 3,
                     *         "title": "Course handbook",
                     *         "type": "file",
                     *         "url": "https://northwind-academy.example/handbooks/pm-101.pdf",
                     *         "body": null,
                     *         "status": "published",
                     *         "published_at": "2026-08-14T12:00:00.000Z",
                     *         "created_at": "2026-08-14T12:00:00.000Z",
                     *         "updated_at": "2026-08-14T12:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LearningResource"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "created_at" | "updated_at" | "title" | "size";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only documents of this type. */
                type?: "profile_document" | "employment_letter" | "character_reference" | "training_certificate" | "course_document" | "generated_report";
                /** @description Only documents in this status (deleted ones included when asked for). */
                status?: "stored" | "available" | "archived" | "deleted";
                /** @description Only documents of this student. */
                student_id?: number;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 12,
                     *           "type": "employment_letter",
                     *           "status": "available",
                     *           "title": "Employment letter, Contoso Ltd",
                     *           "filename": "employment-letter-contoso.pdf",
                     *           "media_type": "application/pdf",
                     *           "size": 184320,
                     *           "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *           "student_id": 30,
                     *           "supersedes_id": null,
                     *           "superseded_by_id": null,
                     *           "failure_reason": null,
                     *           "download_path": "/api/v1/documents/12/download",
                     *           "available_at": "2026-09-04T11:02:17.441Z",
                     *           "archived_at": null,
                     *           "deleted_at": null,
                     *           "created_at": "2026-09-04T11:02:16.903Z",
                     *           "updated_at": "2026-09-04T11:02:17.441Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/documents?page=1&per_page=15",
                     *         "last": "/api/v1/documents?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/documents?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/documents",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DocumentList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    uploadDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "employment_letter",
                 *       "title": "Employment letter, Contoso Ltd",
                 *       "student_id": 30,
                 *       "file": "%PDF-1.7 …"
                 *     }
                 */
                "multipart/form-data": {
                    /** @enum {string} */
                    type: "profile_document" | "employment_letter" | "character_reference" | "training_certificate" | "course_document" | "generated_report";
                    /**
                     * Format: binary
                     * @description The file.
                     */
                    file: string;
                    title?: string;
                    student_id?: number;
                    supersedes_id?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 12,
                     *         "type": "employment_letter",
                     *         "status": "available",
                     *         "title": "Employment letter, Contoso Ltd",
                     *         "filename": "employment-letter-contoso.pdf",
                     *         "media_type": "application/pdf",
                     *         "size": 184320,
                     *         "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *         "student_id": 30,
                     *         "supersedes_id": null,
                     *         "superseded_by_id": null,
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/documents/12/download",
                     *         "available_at": "2026-09-04T11:02:17.441Z",
                     *         "archived_at": null,
                     *         "deleted_at": null,
                     *         "created_at": "2026-09-04T11:02:16.903Z",
                     *         "updated_at": "2026-09-04T11:02:17.441Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            409: components["responses"]["InvalidTransitionOrConflictOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                document: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 12,
                     *         "type": "employment_letter",
                     *         "status": "available",
                     *         "title": "Employment letter, Contoso Ltd",
                     *         "filename": "employment-letter-contoso.pdf",
                     *         "media_type": "application/pdf",
                     *         "size": 184320,
                     *         "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *         "student_id": 30,
                     *         "supersedes_id": null,
                     *         "superseded_by_id": null,
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/documents/12/download",
                     *         "available_at": "2026-09-04T11:02:17.441Z",
                     *         "archived_at": null,
                     *         "deleted_at": null,
                     *         "created_at": "2026-09-04T11:02:16.903Z",
                     *         "updated_at": "2026-09-04T11:02:17.441Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    deleteDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 12,
                     *         "type": "employment_letter",
                     *         "status": "available",
                     *         "title": "Employment letter, Contoso Ltd",
                     *         "filename": "employment-letter-contoso.pdf",
                     *         "media_type": "application/pdf",
                     *         "size": 184320,
                     *         "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *         "student_id": 30,
                     *         "supersedes_id": null,
                     *         "superseded_by_id": null,
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/documents/12/download",
                     *         "available_at": "2026-09-04T11:02:17.441Z",
                     *         "archived_at": null,
                     *         "deleted_at": null,
                     *         "created_at": "2026-09-04T11:02:16.903Z",
                     *         "updated_at": "2026-09-04T11:02:17.441Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransition"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    updateDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the version the change is based on, as a `GET` gave it, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when the resource has changed since, the answer is a 412 `precondition_failed` and nothing is written. Without it, the change applies to the current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                document: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Employment letter, Contoso Ltd (signed)"
                 *     }
                 */
                "application/json": components["schemas"]["DocumentPatch"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 12,
                     *         "type": "employment_letter",
                     *         "status": "available",
                     *         "title": "Employment letter, Contoso Ltd",
                     *         "filename": "employment-letter-contoso.pdf",
                     *         "media_type": "application/pdf",
                     *         "size": 184320,
                     *         "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *         "student_id": 30,
                     *         "supersedes_id": null,
                     *         "superseded_by_id": null,
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/documents/12/download",
                     *         "available_at": "2026-09-04T11:02:17.441Z",
                     *         "archived_at": null,
                     *         "deleted_at": null,
                     *         "created_at": "2026-09-04T11:02:16.903Z",
                     *         "updated_at": "2026-09-04T11:02:17.441Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransition"];
            412: components["responses"]["PreconditionFailed"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    archiveDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                document: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 12,
                     *         "type": "employment_letter",
                     *         "status": "available",
                     *         "title": "Employment letter, Contoso Ltd",
                     *         "filename": "employment-letter-contoso.pdf",
                     *         "media_type": "application/pdf",
                     *         "size": 184320,
                     *         "sha256": "9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8",
                     *         "student_id": 30,
                     *         "supersedes_id": null,
                     *         "superseded_by_id": null,
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/documents/12/download",
                     *         "available_at": "2026-09-04T11:02:17.441Z",
                     *         "archived_at": null,
                     *         "deleted_at": null,
                     *         "created_at": "2026-09-04T11:02:16.903Z",
                     *         "updated_at": "2026-09-04T11:02:17.441Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Document"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    downloadDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                document: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, in its media type (one that its document type accepts). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "application/pdf": string;
                    "application/vnd.openxmlformats-officedocument.presentationml.presentation": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": string;
                    "application/zip": string;
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                    "text/csv": string;
                    "text/plain": string;
                    "video/mp4": string;
                };
            };
            /** @description The requested bytes of the file (`Content-Range`), in its media type. */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "application/pdf": string;
                    "application/vnd.openxmlformats-officedocument.presentationml.presentation": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": string;
                    "application/zip": string;
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                    "text/csv": string;
                    "text/plain": string;
                    "video/mp4": string;
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            416: components["responses"]["RangeNotSatisfiable"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listEnrolments: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only the enrolments of this student. */
                student_id?: number;
                /** @description Only enrolments in the sessions of this course. */
                course_id?: number;
                /** @description Only enrolments in this status. */
                status?: "confirmed" | "waitlisted" | "cancelled";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 27,
                     *           "student_id": 30,
                     *           "session_id": 3,
                     *           "course_id": 3,
                     *           "status": "confirmed",
                     *           "waitlist_position": null,
                     *           "confirmed_at": "2026-09-03T10:15:02.664Z",
                     *           "cancelled_at": null,
                     *           "cancellation_reason": null,
                     *           "completion_outcome": null,
                     *           "completion_notes": null,
                     *           "completion_recorded_at": null,
                     *           "created_at": "2026-09-03T10:15:02.664Z",
                     *           "updated_at": "2026-09-03T10:15:02.664Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/enrolments?page=1&per_page=15",
                     *         "last": "/api/v1/enrolments?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/enrolments?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/enrolments",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["EnrolmentList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getEnrolment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                enrolment: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 27,
                     *         "student_id": 30,
                     *         "session_id": 3,
                     *         "course_id": 3,
                     *         "status": "confirmed",
                     *         "waitlist_position": null,
                     *         "confirmed_at": "2026-09-03T10:15:02.664Z",
                     *         "cancelled_at": null,
                     *         "cancellation_reason": null,
                     *         "completion_outcome": null,
                     *         "completion_notes": null,
                     *         "completion_recorded_at": null,
                     *         "created_at": "2026-09-03T10:15:02.664Z",
                     *         "updated_at": "2026-09-03T10:15:02.664Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Enrolment"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "status": "pass",
                     *         "checks": [
                     *           {
                     *             "name": "database",
                     *             "status": "pass",
                     *             "component_type": "datastore",
                     *             "observed_value": 1.2,
                     *             "observed_unit": "ms",
                     *             "output": null,
                     *             "time": "2026-11-24T03:00:00.052Z"
                     *           },
                     *           {
                     *             "name": "queue",
                     *             "status": "pass",
                     *             "component_type": "component",
                     *             "observed_value": 0,
                     *             "observed_unit": "s",
                     *             "output": "No job is waiting.",
                     *             "time": "2026-11-24T03:00:00.052Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["HealthReport"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            /** @description Unavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "status": "pass",
                     *         "checks": [
                     *           {
                     *             "name": "database",
                     *             "status": "pass",
                     *             "component_type": "datastore",
                     *             "observed_value": 1.2,
                     *             "observed_unit": "ms",
                     *             "output": null,
                     *             "time": "2026-11-24T03:00:00.052Z"
                     *           },
                     *           {
                     *             "name": "queue",
                     *             "status": "pass",
                     *             "component_type": "component",
                     *             "observed_value": 0,
                     *             "observed_unit": "s",
                     *             "output": "No job is waiting.",
                     *             "time": "2026-11-24T03:00:00.052Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["HealthReport"];
                    } | components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthCheck: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /** @description The name of a check, e.g. `database`. */
                check: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "name": "database",
                     *         "status": "pass",
                     *         "component_type": "datastore",
                     *         "observed_value": 1.2,
                     *         "observed_unit": "ms",
                     *         "output": null,
                     *         "time": "2026-11-24T03:00:00.052Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["HealthCheckResult"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
            /** @description Unavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "name": "database",
                     *         "status": "pass",
                     *         "component_type": "datastore",
                     *         "observed_value": 1.2,
                     *         "observed_unit": "ms",
                     *         "output": null,
                     *         "time": "2026-11-24T03:00:00.052Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["HealthCheckResult"];
                    } | components["schemas"]["Error"];
                };
            };
        };
    };
    listIntegrationMessages: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "created_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only messages of this integration. */
                integration_key?: string;
                /** @description Only messages in this status. */
                status?: "queued" | "delivering" | "delivered" | "failed";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 41,
                     *           "integration_key": "crm",
                     *           "event_id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *           "event_type": "enrollment.created",
                     *           "status": "delivered",
                     *           "attempts": 1,
                     *           "max_attempts": 8,
                     *           "last_status_code": 200,
                     *           "last_error": null,
                     *           "payload": {
                     *             "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *             "type": "enrollment.created",
                     *             "version": "1",
                     *             "occurred_at": "2026-09-03T10:15:02.664Z",
                     *             "payload": {
                     *               "enrolment_id": 27,
                     *               "student_id": 30,
                     *               "session_id": 3,
                     *               "course_id": 3,
                     *               "status": "confirmed",
                     *               "waitlist_position": null
                     *             }
                     *           },
                     *           "delivered_at": "2026-09-03T10:15:03.118Z",
                     *           "failed_at": null,
                     *           "created_at": "2026-09-03T10:15:02.701Z",
                     *           "updated_at": "2026-09-03T10:15:03.118Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/integrations?page=1&per_page=15",
                     *         "last": "/api/v1/integrations?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/integrations?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/integrations",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["IntegrationMessageList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getIntegrationMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                message: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 41,
                     *         "integration_key": "crm",
                     *         "event_id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *         "event_type": "enrollment.created",
                     *         "status": "delivered",
                     *         "attempts": 1,
                     *         "max_attempts": 8,
                     *         "last_status_code": 200,
                     *         "last_error": null,
                     *         "payload": {
                     *           "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *           "type": "enrollment.created",
                     *           "version": "1",
                     *           "occurred_at": "2026-09-03T10:15:02.664Z",
                     *           "payload": {
                     *             "enrolment_id": 27,
                     *             "student_id": 30,
                     *             "session_id": 3,
                     *             "course_id": 3,
                     *             "status": "confirmed",
                     *             "waitlist_position": null
                     *           }
                     *         },
                     *         "delivered_at": "2026-09-03T10:15:03.118Z",
                     *         "failed_at": null,
                     *         "created_at": "2026-09-03T10:15:02.701Z",
                     *         "updated_at": "2026-09-03T10:15:03.118Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["IntegrationMessage"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    retryIntegrationMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                message: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the work continues in the background */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 41,
                     *         "integration_key": "crm",
                     *         "event_id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *         "event_type": "enrollment.created",
                     *         "status": "delivered",
                     *         "attempts": 1,
                     *         "max_attempts": 8,
                     *         "last_status_code": 200,
                     *         "last_error": null,
                     *         "payload": {
                     *           "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                     *           "type": "enrollment.created",
                     *           "version": "1",
                     *           "occurred_at": "2026-09-03T10:15:02.664Z",
                     *           "payload": {
                     *             "enrolment_id": 27,
                     *             "student_id": 30,
                     *             "session_id": 3,
                     *             "course_id": 3,
                     *             "status": "confirmed",
                     *             "waitlist_position": null
                     *           }
                     *         },
                     *         "delivered_at": "2026-09-03T10:15:03.118Z",
                     *         "failed_at": null,
                     *         "created_at": "2026-09-03T10:15:02.701Z",
                     *         "updated_at": "2026-09-03T10:15:03.118Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["IntegrationMessage"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["NotRetryableOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    listNotifications: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only notifications of this type. */
                type?: "invitation" | "activation" | "suspension" | "reactivation" | "archival" | "password_reset";
                /** @description Only notifications in this delivery status. */
                status?: "queued" | "sent" | "failed";
                /** @description Only notifications about this user. */
                user_id?: number;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 15,
                     *           "type": "invitation",
                     *           "status": "sent",
                     *           "user_id": 4,
                     *           "recipient": "daniel.okafor@northwind-academy.example",
                     *           "subject": "You are invited to Northwind Training Academy",
                     *           "attempts": 1,
                     *           "max_attempts": 5,
                     *           "last_error": null,
                     *           "sent_at": "2026-02-02T09:30:02.512Z",
                     *           "failed_at": null,
                     *           "created_at": "2026-02-02T09:30:00.000Z",
                     *           "updated_at": "2026-02-02T09:30:02.512Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/notifications?page=1&per_page=15",
                     *         "last": "/api/v1/notifications?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/notifications?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/notifications",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["NotificationList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getNotification: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                notification: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 15,
                     *         "type": "invitation",
                     *         "status": "sent",
                     *         "user_id": 4,
                     *         "recipient": "daniel.okafor@northwind-academy.example",
                     *         "subject": "You are invited to Northwind Training Academy",
                     *         "attempts": 1,
                     *         "max_attempts": 5,
                     *         "last_error": null,
                     *         "sent_at": "2026-02-02T09:30:02.512Z",
                     *         "failed_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-02T09:30:02.512Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Notification"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "name": "Northwind Training Academy",
                     *         "legal_name": "Northwind Training Academy Ltd",
                     *         "timezone": "Europe/London",
                     *         "locale": "en-GB",
                     *         "currency": "GBP",
                     *         "contact_email": "office@northwind-academy.example",
                     *         "phone": "+44 20 7946 0000",
                     *         "website": "https://northwind-academy.example",
                     *         "address": {
                     *           "line1": "12 Learning Lane",
                     *           "line2": null,
                     *           "city": "London",
                     *           "region": null,
                     *           "postal_code": "EC1A 1AA",
                     *           "country": "GB"
                     *         },
                     *         "created_at": "2026-01-05T09:00:00.000Z",
                     *         "updated_at": "2026-06-02T14:12:45.318Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Organization"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the version the change is based on, as a `GET` gave it, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when the resource has changed since, the answer is a 412 `precondition_failed` and nothing is written. Without it, the change applies to the current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phone": "+44 20 7946 0001",
                 *       "website": "https://northwind-academy.example"
                 *     }
                 */
                "application/json": components["schemas"]["OrganizationPatch"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "name": "Northwind Training Academy",
                     *         "legal_name": "Northwind Training Academy Ltd",
                     *         "timezone": "Europe/London",
                     *         "locale": "en-GB",
                     *         "currency": "GBP",
                     *         "contact_email": "office@northwind-academy.example",
                     *         "phone": "+44 20 7946 0000",
                     *         "website": "https://northwind-academy.example",
                     *         "address": {
                     *           "line1": "12 Learning Lane",
                     *           "line2": null,
                     *           "city": "London",
                     *           "region": null,
                     *           "postal_code": "EC1A 1AA",
                     *           "country": "GB"
                     *         },
                     *         "created_at": "2026-01-05T09:00:00.000Z",
                     *         "updated_at": "2026-06-02T14:12:45.318Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Organization"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            412: components["responses"]["PreconditionFailed"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listReports: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only reports of this type. */
                type?: "enrolments" | "completions" | "certificates_issued" | "attendance" | "session_capacity";
                /** @description Only reports in this status. */
                status?: "requested" | "generating" | "generated" | "stored" | "available" | "expired" | "failed";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 6,
                     *           "type": "enrolments",
                     *           "format": "csv",
                     *           "status": "available",
                     *           "parameters": {
                     *             "from": "2026-11-01",
                     *             "to": "2026-11-23"
                     *           },
                     *           "progress": 100,
                     *           "row_count": 212,
                     *           "size": 28415,
                     *           "sha256": "3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6",
                     *           "failure_reason": null,
                     *           "download_path": "/api/v1/reports/6/download",
                     *           "generated_at": "2026-11-23T16:20:04.228Z",
                     *           "available_at": "2026-11-23T16:20:04.377Z",
                     *           "expires_at": "2026-11-30T16:20:04.377Z",
                     *           "expired_at": null,
                     *           "failed_at": null,
                     *           "created_at": "2026-11-23T16:20:01.950Z",
                     *           "updated_at": "2026-11-23T16:20:04.377Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/reports?page=1&per_page=15",
                     *         "last": "/api/v1/reports?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/reports?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/reports",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ReportList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    requestReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "enrolments",
                 *       "format": "csv",
                 *       "parameters": {
                 *         "from": "2026-11-01",
                 *         "to": "2026-11-23"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReportRequest"];
            };
        };
        responses: {
            /** @description Accepted; the work continues in the background */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 6,
                     *         "type": "enrolments",
                     *         "format": "csv",
                     *         "status": "available",
                     *         "parameters": {
                     *           "from": "2026-11-01",
                     *           "to": "2026-11-23"
                     *         },
                     *         "progress": 100,
                     *         "row_count": 212,
                     *         "size": 28415,
                     *         "sha256": "3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6",
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/reports/6/download",
                     *         "generated_at": "2026-11-23T16:20:04.228Z",
                     *         "available_at": "2026-11-23T16:20:04.377Z",
                     *         "expires_at": "2026-11-30T16:20:04.377Z",
                     *         "expired_at": null,
                     *         "failed_at": null,
                     *         "created_at": "2026-11-23T16:20:01.950Z",
                     *         "updated_at": "2026-11-23T16:20:04.377Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Report"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            409: components["responses"]["IdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    getReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                report: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 6,
                     *         "type": "enrolments",
                     *         "format": "csv",
                     *         "status": "available",
                     *         "parameters": {
                     *           "from": "2026-11-01",
                     *           "to": "2026-11-23"
                     *         },
                     *         "progress": 100,
                     *         "row_count": 212,
                     *         "size": 28415,
                     *         "sha256": "3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6",
                     *         "failure_reason": null,
                     *         "download_path": "/api/v1/reports/6/download",
                     *         "generated_at": "2026-11-23T16:20:04.228Z",
                     *         "available_at": "2026-11-23T16:20:04.377Z",
                     *         "expires_at": "2026-11-30T16:20:04.377Z",
                     *         "expired_at": null,
                     *         "failed_at": null,
                     *         "created_at": "2026-11-23T16:20:01.950Z",
                     *         "updated_at": "2026-11-23T16:20:04.377Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Report"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    downloadReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                report: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report file, in its format’s media type. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv": string;
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["ReportNotAvailable"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    search: {
        parameters: {
            query?: {
                /** @description The text to find, case-insensitively, inside the fields each group searches. Blank (or absent): every group empty. */
                q?: string;
                /** @description Items per group, 1–50 (default 10); `total` counts them all, up to 1000. */
                limit?: number;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "assessments": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "certificates": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "courses": {
                     *           "total": 1,
                     *           "total_capped": false,
                     *           "items": [
                     *             {
                     *               "id": 3,
                     *               "type": "course",
                     *               "title": "Project Management Fundamentals",
                     *               "path": "/api/v1/courses/project-management-fundamentals",
                     *               "slug": "project-management-fundamentals",
                     *               "code": "PM-101",
                     *               "status": "published"
                     *             }
                     *           ],
                     *           "restricted": false
                     *         },
                     *         "documents": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "enrolments": {
                     *           "total": 1,
                     *           "total_capped": false,
                     *           "items": [
                     *             {
                     *               "id": 27,
                     *               "type": "enrolment",
                     *               "title": "Aoife Nowak, Project Management Fundamentals",
                     *               "path": "/api/v1/enrolments/27",
                     *               "student_id": 30,
                     *               "course": "project-management-fundamentals",
                     *               "session_id": 3,
                     *               "status": "confirmed"
                     *             }
                     *           ],
                     *           "restricted": false
                     *         },
                     *         "meetings": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "notifications": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": true
                     *         },
                     *         "reports": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "resources": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "sessions": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "students": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         },
                     *         "users": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": true
                     *         },
                     *         "workflows": {
                     *           "total": 0,
                     *           "total_capped": false,
                     *           "items": [],
                     *           "restricted": false
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["SearchResults"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listStudents: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "name" | "email" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Case-insensitive text that the name or the email contains; blank matches every student. */
                search?: string;
                /** @description Email verification: `verified` or `unverified` students only. */
                status?: "verified" | "unverified";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 30,
                     *           "name": "Aoife Nowak",
                     *           "email": "aoife.nowak@mail.example",
                     *           "email_verified": true,
                     *           "courses": [
                     *             "project-management-fundamentals"
                     *           ],
                     *           "created_at": "2026-04-11T08:23:51.092Z",
                     *           "updated_at": "2026-09-03T10:15:02.664Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/students?page=1&per_page=15",
                     *         "last": "/api/v1/students?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/students?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/students",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["StudentList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getStudent: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                student: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 30,
                     *         "name": "Aoife Nowak",
                     *         "email": "aoife.nowak@mail.example",
                     *         "email_verified": true,
                     *         "courses": [
                     *           "project-management-fundamentals"
                     *         ],
                     *         "created_at": "2026-04-11T08:23:51.092Z",
                     *         "updated_at": "2026-09-03T10:15:02.664Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Student"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listTasks: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "task_type" | "next_run_at" | "last_run_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only the task of this type. */
                task_type?: "audit.purge" | "health.run_checks" | "idempotency.prune" | "jobs.prune_failed" | "reports.expire" | "sessions.advance" | "students.split_marks";
                /** @description Only enabled or disabled tasks: `true`/`1` or `false`/`0`. */
                enabled?: "true" | "false" | "1" | "0";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 2,
                     *           "task_type": "health.run_checks",
                     *           "name": "Run health checks",
                     *           "description": "Runs every enabled health check and sends an alert when one fails.",
                     *           "cron": "*\/5 * * * *",
                     *           "timezone": "Europe/London",
                     *           "enabled": true,
                     *           "next_run_at": "2026-11-24T03:05:00.000Z",
                     *           "last_run_at": "2026-11-24T03:00:00.034Z",
                     *           "last_outcome": "succeeded",
                     *           "last_error": null,
                     *           "last_duration_ms": 57,
                     *           "created_at": "2026-01-05T09:00:00.000Z",
                     *           "updated_at": "2026-11-24T03:00:00.091Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/tasks?page=1&per_page=15",
                     *         "last": "/api/v1/tasks?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/tasks?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/tasks",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TaskList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                task: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 2,
                     *         "task_type": "health.run_checks",
                     *         "name": "Run health checks",
                     *         "description": "Runs every enabled health check and sends an alert when one fails.",
                     *         "cron": "*\/5 * * * *",
                     *         "timezone": "Europe/London",
                     *         "enabled": true,
                     *         "next_run_at": "2026-11-24T03:05:00.000Z",
                     *         "last_run_at": "2026-11-24T03:00:00.034Z",
                     *         "last_outcome": "succeeded",
                     *         "last_error": null,
                     *         "last_duration_ms": 57,
                     *         "created_at": "2026-01-05T09:00:00.000Z",
                     *         "updated_at": "2026-11-24T03:00:00.091Z",
                     *         "recent_runs": [
                     *           {
                     *             "id": 118,
                     *             "task_id": 2,
                     *             "trigger": "schedule",
                     *             "status": "succeeded",
                     *             "scheduled_for": "2026-11-24T03:00:00.000Z",
                     *             "queued_at": "2026-11-24T03:00:00.012Z",
                     *             "started_at": "2026-11-24T03:00:00.034Z",
                     *             "finished_at": "2026-11-24T03:00:00.091Z",
                     *             "duration_ms": 57,
                     *             "error": null
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["TaskDetail"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    runTask: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the work continues in the background */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 118,
                     *         "task_id": 2,
                     *         "trigger": "schedule",
                     *         "status": "succeeded",
                     *         "scheduled_for": "2026-11-24T03:00:00.000Z",
                     *         "queued_at": "2026-11-24T03:00:00.012Z",
                     *         "started_at": "2026-11-24T03:00:00.034Z",
                     *         "finished_at": "2026-11-24T03:00:00.091Z",
                     *         "duration_ms": 57,
                     *         "error": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["TaskRun"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TaskDisabledOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    getTaskRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                task: number;
                run: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 118,
                     *         "task_id": 2,
                     *         "trigger": "schedule",
                     *         "status": "succeeded",
                     *         "scheduled_for": "2026-11-24T03:00:00.000Z",
                     *         "queued_at": "2026-11-24T03:00:00.012Z",
                     *         "started_at": "2026-11-24T03:00:00.034Z",
                     *         "finished_at": "2026-11-24T03:00:00.091Z",
                     *         "duration_ms": 57,
                     *         "error": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["TaskRun"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "name" | "email" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only users in this lifecycle state. */
                status?: "draft" | "invited" | "active" | "suspended" | "archived";
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 4,
                     *           "name": "Daniel Okafor",
                     *           "email": "daniel.okafor@northwind-academy.example",
                     *           "job_title": "Course coordinator",
                     *           "status": "active",
                     *           "roles": [
                     *             "coordinator"
                     *           ],
                     *           "permissions": [
                     *             "courses.approve"
                     *           ],
                     *           "effective_permissions": [
                     *             "catalogue.manage",
                     *             "courses.approve",
                     *             "documents.manage",
                     *             "reports.manage"
                     *           ],
                     *           "invited_at": "2026-02-02T09:30:00.000Z",
                     *           "activated_at": "2026-02-03T08:12:44.120Z",
                     *           "suspended_at": null,
                     *           "archived_at": null,
                     *           "created_at": "2026-02-02T09:30:00.000Z",
                     *           "updated_at": "2026-02-03T08:12:44.120Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/users?page=1&per_page=15",
                     *         "last": "/api/v1/users?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/users?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/users",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["UserList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Daniel Okafor",
                 *       "email": "daniel.okafor@northwind-academy.example",
                 *       "job_title": "Course coordinator"
                 *     }
                 */
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Location: components["headers"]["Location"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            409: components["responses"]["IdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the version the change is based on, as a `GET` gave it, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when the resource has changed since, the answer is a 412 `precondition_failed` and nothing is written. Without it, the change applies to the current version. */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "job_title": "Senior course coordinator"
                 *     }
                 */
                "application/json": components["schemas"]["UserPatch"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    archiveUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    inviteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    reactivateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    suspendUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 4,
                     *         "name": "Daniel Okafor",
                     *         "email": "daniel.okafor@northwind-academy.example",
                     *         "job_title": "Course coordinator",
                     *         "status": "active",
                     *         "roles": [
                     *           "coordinator"
                     *         ],
                     *         "permissions": [
                     *           "courses.approve"
                     *         ],
                     *         "effective_permissions": [
                     *           "catalogue.manage",
                     *           "courses.approve",
                     *           "documents.manage",
                     *           "reports.manage"
                     *         ],
                     *         "invited_at": "2026-02-02T09:30:00.000Z",
                     *         "activated_at": "2026-02-03T08:12:44.120Z",
                     *         "suspended_at": null,
                     *         "archived_at": null,
                     *         "created_at": "2026-02-02T09:30:00.000Z",
                     *         "updated_at": "2026-02-03T08:12:44.120Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                /** @description 1-based page number. */
                page?: number;
                /** @description Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it. */
                per_page?: number;
                /** @description Sort key (default `id`); ties are broken by id. */
                sort?: "id" | "workflow" | "state" | "created_at" | "updated_at";
                /** @description Sort direction (default `asc`). */
                direction?: "asc" | "desc";
                /** @description Only items changed at or after this RFC 3339 time, to sync what changed. */
                updated_since?: string;
                /** @description Only instances of this workflow definition. */
                workflow?: "course_approval" | "document_approval";
                /** @description Only instances in this state. */
                state?: "approved" | "changes_requested" | "in_review" | "pending" | "rejected";
                /** @description Only instances about this kind of subject, e.g. `course`. */
                subject_type?: string;
                /** @description Only instances about the subject with this id. */
                subject_id?: number;
            };
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 3,
                     *           "workflow": "course_approval",
                     *           "state": "in_review",
                     *           "subject_type": "course",
                     *           "subject_id": 3,
                     *           "assignee": {
                     *             "id": 4,
                     *             "name": "Daniel Okafor"
                     *           },
                     *           "approval_policy": {
                     *             "required_permission": "courses.approve"
                     *           },
                     *           "allowed_transitions": [
                     *             "approved",
                     *             "rejected"
                     *           ],
                     *           "decisions": [
                     *             {
                     *               "from_state": "pending",
                     *               "to_state": "in_review",
                     *               "decided_by": {
                     *                 "id": 4,
                     *                 "name": "Daniel Okafor"
                     *               },
                     *               "comment": "Syllabus and pricing checked; over to the review board.",
                     *               "decided_at": "2026-02-12T14:05:31.000Z"
                     *             }
                     *           ],
                     *           "created_at": "2026-02-10T10:00:00.000Z",
                     *           "updated_at": "2026-02-12T14:05:31.000Z"
                     *         }
                     *       ],
                     *       "links": {
                     *         "first": "/api/v1/workflows?page=1&per_page=15",
                     *         "last": "/api/v1/workflows?page=2&per_page=15",
                     *         "prev": null,
                     *         "next": "/api/v1/workflows?page=2&per_page=15"
                     *       },
                     *       "meta": {
                     *         "current_page": 1,
                     *         "from": 1,
                     *         "last_page": 2,
                     *         "path": "/api/v1/workflows",
                     *         "per_page": 15,
                     *         "to": 15,
                     *         "total": 27
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WorkflowInstanceList"];
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request). */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                workflow: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 3,
                     *         "workflow": "course_approval",
                     *         "state": "in_review",
                     *         "subject_type": "course",
                     *         "subject_id": 3,
                     *         "assignee": {
                     *           "id": 4,
                     *           "name": "Daniel Okafor"
                     *         },
                     *         "approval_policy": {
                     *           "required_permission": "courses.approve"
                     *         },
                     *         "allowed_transitions": [
                     *           "approved",
                     *           "rejected"
                     *         ],
                     *         "decisions": [
                     *           {
                     *             "from_state": "pending",
                     *             "to_state": "in_review",
                     *             "decided_by": {
                     *               "id": 4,
                     *               "name": "Daniel Okafor"
                     *             },
                     *             "comment": "Syllabus and pricing checked; over to the review board.",
                     *             "decided_at": "2026-02-12T14:05:31.000Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-02-10T10:00:00.000Z",
                     *         "updated_at": "2026-02-12T14:05:31.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WorkflowInstance"];
                    };
                };
            };
            304: components["responses"]["NotModified"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["RateLimited"];
        };
    };
    assignWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                workflow: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": 1
                 *     }
                 */
                "application/json": {
                    /** @description An active staff user. */
                    user_id: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 3,
                     *         "workflow": "course_approval",
                     *         "state": "in_review",
                     *         "subject_type": "course",
                     *         "subject_id": 3,
                     *         "assignee": {
                     *           "id": 4,
                     *           "name": "Daniel Okafor"
                     *         },
                     *         "approval_policy": {
                     *           "required_permission": "courses.approve"
                     *         },
                     *         "allowed_transitions": [
                     *           "approved",
                     *           "rejected"
                     *         ],
                     *         "decisions": [
                     *           {
                     *             "from_state": "pending",
                     *             "to_state": "in_review",
                     *             "decided_by": {
                     *               "id": 4,
                     *               "name": "Daniel Okafor"
                     *             },
                     *             "comment": "Syllabus and pricing checked; over to the review board.",
                     *             "decided_at": "2026-02-12T14:05:31.000Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-02-10T10:00:00.000Z",
                     *         "updated_at": "2026-02-12T14:05:31.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WorkflowInstance"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScopeOrPermissionDenied"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["IdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    transitionWorkflow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                workflow: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to_state": "approved",
                 *       "comment": "Content and pricing approved for the spring catalogue."
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The state to move to; one of `allowed_transitions`.
                     * @example approved
                     */
                    to_state: string;
                    /**
                     * @description The reason for the decision, kept with it.
                     * @example Content and pricing approved for the spring catalogue.
                     */
                    comment?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": 3,
                     *         "workflow": "course_approval",
                     *         "state": "in_review",
                     *         "subject_type": "course",
                     *         "subject_id": 3,
                     *         "assignee": {
                     *           "id": 4,
                     *           "name": "Daniel Okafor"
                     *         },
                     *         "approval_policy": {
                     *           "required_permission": "courses.approve"
                     *         },
                     *         "allowed_transitions": [
                     *           "approved",
                     *           "rejected"
                     *         ],
                     *         "decisions": [
                     *           {
                     *             "from_state": "pending",
                     *             "to_state": "in_review",
                     *             "decided_by": {
                     *               "id": 4,
                     *               "name": "Daniel Okafor"
                     *             },
                     *             "comment": "Syllabus and pricing checked; over to the review board.",
                     *             "decided_at": "2026-02-12T14:05:31.000Z"
                     *           }
                     *         ],
                     *         "created_at": "2026-02-10T10:00:00.000Z",
                     *         "updated_at": "2026-02-12T14:05:31.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WorkflowInstance"];
                    };
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["InsufficientScopeOrPermissionDenied"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["InvalidTransitionOrIdempotencyKeyInUseOrIdempotencyKeyAnswerLost"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailedOrIdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
        };
    };
    onEnrollmentCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "enrollment.created",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "enrolment_id": 27,
                 *         "student_id": 30,
                 *         "session_id": 3,
                 *         "course_id": 3,
                 *         "status": "confirmed",
                 *         "waitlist_position": null
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["EnrollmentCreatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onEnrollmentPromoted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "enrollment.promoted",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "enrolment_id": 52,
                 *         "student_id": 61,
                 *         "session_id": 3,
                 *         "course_id": 3,
                 *         "status": "confirmed",
                 *         "previous_waitlist_position": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["EnrollmentPromotedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onEnrollmentCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "enrollment.completed",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "enrolment_id": 27,
                 *         "student_id": 30,
                 *         "session_id": 3,
                 *         "course_id": 3,
                 *         "completion_outcome": "passed",
                 *         "at": "2026-12-09T16:30:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["EnrollmentCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCertificateIssued: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "certificate.issued",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "certificate_id": 123,
                 *         "certificate_number": "CERT-2026-000123",
                 *         "student_id": 30,
                 *         "course_id": 3,
                 *         "course": "project-management-fundamentals",
                 *         "session_id": 3,
                 *         "enrolment_id": 27,
                 *         "issued_at": "2026-12-10T09:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CertificateIssuedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCoursePublished: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course.published",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "course_id": 3,
                 *         "slug": "project-management-fundamentals",
                 *         "code": "PM-101",
                 *         "title": "Project Management Fundamentals",
                 *         "status": "published",
                 *         "at": "2026-03-02T10:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CoursePublishedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCourseArchived: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course.archived",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "course_id": 1,
                 *         "slug": "advanced-excel",
                 *         "code": "XL-300",
                 *         "title": "Advanced Excel",
                 *         "status": "archived",
                 *         "at": "2026-05-30T06:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CourseArchivedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCourseApplicationImported: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course_application.imported",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "import_id": "imp_5Jx2QnV8",
                 *         "source": "applications-2026-09.csv",
                 *         "batch": 1,
                 *         "batches": 1,
                 *         "students_created": 1,
                 *         "applications_created": 1,
                 *         "applications": [
                 *           {
                 *             "id": 88,
                 *             "student_id": 30,
                 *             "course_id": 3,
                 *             "course": "project-management-fundamentals"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CourseApplicationImportedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onExportCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "export.completed",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "report_id": 6,
                 *         "type": "enrolments",
                 *         "format": "csv",
                 *         "row_count": 212,
                 *         "size": 28415,
                 *         "download_path": "/api/v1/reports/6/download"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ExportCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onJobFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "job.failed",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "job_id": 4410,
                 *         "job_name": "notifications.deliver",
                 *         "attempts": 5,
                 *         "last_error": "SMTP 421: service not available"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["JobFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onAlertSent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "alert.sent",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "previous": "pass",
                 *         "current": "fail",
                 *         "failing_checks": [
                 *           {
                 *             "name": "storage",
                 *             "status": "fail",
                 *             "output": "The storage directory is not writable."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["AlertSentEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCourseIntakeRegistrationOpened: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course_intake.registration_opened",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "session_id": 3,
                 *         "course_id": 3,
                 *         "course": "project-management-fundamentals",
                 *         "name": "Autumn cohort",
                 *         "workflow_state": "open_for_registration",
                 *         "starts_on": "2026-12-07",
                 *         "ends_on": "2026-12-09",
                 *         "at": "2026-09-01T08:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CourseIntakeRegistrationOpenedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCourseIntakeCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course_intake.completed",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "session_id": 1,
                 *         "course_id": 1,
                 *         "course": "advanced-excel",
                 *         "name": "Final run",
                 *         "workflow_state": "completed",
                 *         "starts_on": "2026-05-08",
                 *         "ends_on": "2026-05-09",
                 *         "at": "2026-05-10T06:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CourseIntakeCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCourseIntakeCancelled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event id (the body’s `id`): the same on every retry.
                 * @example evt_Qm9a3kT2xVbL8pRw1cYz
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in Unix time (seconds).
                 * @example 1795512600
                 */
                "webhook-timestamp": string;
                /**
                 * @description `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "evt_Qm9a3kT2xVbL8pRw1cYz",
                 *       "type": "course_intake.cancelled",
                 *       "version": "1",
                 *       "occurred_at": "2026-11-24T09:30:00.000Z",
                 *       "payload": {
                 *         "session_id": 5,
                 *         "course_id": 4,
                 *         "course": "python-for-data-analysis",
                 *         "name": "Evening cohort",
                 *         "workflow_state": "cancelled",
                 *         "starts_on": "2027-01-11",
                 *         "ends_on": "2027-02-15",
                 *         "at": "2026-11-20T12:00:00.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CourseIntakeCancelledEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx ends the delivery as succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The endpoint is gone: it is disabled and gets no further deliveries. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
