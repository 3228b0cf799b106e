import type { Generated } from 'kysely';

// Row types as both dialects return them (see database.ts): timestamps are ISO 8601 strings, JSON
// columns are text, booleans are `boolean` on PostgreSQL and 0/1 on SQLite (read them with Boolean()).
type Timestamp = string;
type Json = string;
type Bool = boolean | number;

export interface OrganizationTable {
  id: number;
  name: string;
  legal_name: string | null;
  timezone: string;
  locale: string;
  currency: string;
  contact_email: string | null;
  phone: string | null;
  website: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_region: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Students (not staff) per range of ids and verification state, kept by triggers (migration 0027). */
export interface StudentCountTable {
  id_range: number;
  email_verified: Bool;
  students: number;
}

/** Students counted between the marks of one order of their list (migration 0031, src/db/student-marks.ts). */
export interface StudentMarkTable {
  mark: string;
  id: number;
  verified: number;
  unverified: number;
}

/** A word of a student's name or email with the student's order keys (migration 0032, src/db/student-terms.ts). */
export interface StudentTermTable {
  term: string;
  id: number;
  email_verified: Bool;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  name: string;
  email: string;
  status: string;
  is_admin: Bool;
  permissions: Json;
  /** Role names (src/platform/permissions.ts, ROLES), a JSON array. */
  roles: Generated<Json>;
  /** A staff user's password, hashed (src/modules/staff-auth/passwords.ts); null for none. */
  password_hash: Generated<string | null>;
  password_changed_at: Generated<Timestamp | null>;
  email_verified: Generated<Bool>;
  job_title: string | null;
  /** Whether the user has a course application (set by a trigger on its first; migration 0027). */
  is_student: Generated<Bool>;
  /** Staff lifecycle (draft, invited, active, suspended, archived): when each state was last entered. */
  invited_at: Generated<Timestamp | null>;
  activated_at: Generated<Timestamp | null>;
  suspended_at: Generated<Timestamp | null>;
  archived_at: Generated<Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationTable {
  id: Generated<number>;
  /** invitation, activation, suspension, reactivation, archival. */
  type: string;
  /** queued, sent, failed. */
  status: string;
  user_id: number | null;
  recipient: string;
  subject: string;
  locale: string;
  attempts: Generated<number>;
  max_attempts: number;
  last_error: string | null;
  message_id: string | null;
  sent_at: Timestamp | null;
  failed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentTable {
  id: Generated<number>;
  type: string;
  /** stored, available, archived, deleted. */
  status: string;
  title: string | null;
  filename: string;
  media_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  student_id: number | null;
  supersedes_id: number | null;
  uploaded_by_token_id: number | null;
  failure_reason: string | null;
  available_at: Timestamp | null;
  archived_at: Timestamp | null;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReportTable {
  id: Generated<number>;
  type: string;
  format: string;
  /** requested, generating, generated, stored, available, expired, failed. */
  status: string;
  /** JSON text on SQLite, jsonb on PostgreSQL (read as text). */
  parameters: string;
  progress: Generated<number>;
  row_count: number | null;
  size: number | null;
  sha256: string | null;
  storage_key: string | null;
  failure_reason: string | null;
  attempts: Generated<number>;
  requested_by_token_id: number | null;
  request_id: string | null;
  generated_at: Timestamp | null;
  available_at: Timestamp | null;
  expires_at: Timestamp | null;
  expired_at: Timestamp | null;
  failed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserInvitationTable {
  id: Generated<number>;
  user_id: number;
  notification_id: number;
  /** SHA-256 (hex) of the acceptance token; the token itself is never stored. */
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CourseTable {
  id: Generated<number>;
  slug: string;
  code: string;
  title: string;
  description: string | null;
  /** In minor units of `currency` (e.g. cents). */
  price_minor: number;
  currency: string;
  language: string;
  /** Publication workflow: draft, review, approved, published, archived. */
  status: string;
  published_at: Timestamp | null;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CourseApplicationTable {
  id: Generated<number>;
  user_id: number;
  course_id: number;
  /** How it arrived: `admin`, `import`. */
  source: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TrainingSessionTable {
  id: Generated<number>;
  course_id: number;
  name: string;
  max_participants: number;
  waitlist_enabled: Bool;
  registration_opens_at: Timestamp | null;
  registration_closes_at: Timestamp | null;
  /** YYYY-MM-DD. */
  starts_on: string;
  ends_on: string;
  instructor_name: string | null;
  /** draft, scheduled, open_for_registration, in_progress, completed, cancelled. */
  workflow_state: string;
  confirmed_count: Generated<number>;
  waitlisted_count: Generated<number>;
  /** Confirmed enrolments with a recorded completion. */
  completed_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AssessmentTable {
  id: Generated<number>;
  session_id: number;
  title: string;
  kind: string;
  due_at: Timestamp | null;
  max_score: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LearningResourceTable {
  id: Generated<number>;
  session_id: number;
  title: string;
  /** link, file, text. */
  type: string;
  url: string | null;
  body: string | null;
  /** draft, published. */
  status: string;
  published_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MeetingTable {
  id: Generated<number>;
  session_id: number;
  /** YYYY-MM-DD. */
  held_on: string;
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  location: string | null;
  /** Scheduled, Cancelled (the spec's persisted values). */
  status: string;
  cancelled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EnrolmentTable {
  id: Generated<number>;
  user_id: number;
  session_id: number;
  /** confirmed, waitlisted, cancelled. */
  status: string;
  waitlist_position: number | null;
  confirmed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  cancellation_reason: string | null;
  /** passed, failed, withdrawn. */
  completion_outcome: string | null;
  completion_notes: string | null;
  completion_recorded_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CertificateTable {
  id: Generated<number>;
  enrolment_id: number;
  user_id: number;
  course_id: number;
  session_id: number;
  certificate_number: string;
  verification_token: string;
  /** valid, revoked. */
  status: string;
  issued_at: Timestamp;
  revoked_at: Timestamp | null;
  revocation_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkflowInstanceTable {
  id: Generated<number>;
  /** The key of its definition in code (src/modules/workflows/definitions.ts). */
  workflow: string;
  state: string;
  subject_type: string | null;
  subject_id: number | null;
  assignee_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkflowDecisionTable {
  id: Generated<number>;
  instance_id: number;
  from_state: string;
  to_state: string;
  /** The user who decided (a transition needs a token acting for a user). */
  decided_by: number;
  comment: string | null;
  decided_at: Timestamp;
}

export interface ApiTokenTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  token_prefix: string;
  scopes: Json;
  user_id: number | null;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  rotated_to_id: number | null;
  created_at: Timestamp;
}

export interface IdempotencyKeyTable {
  id: Generated<number>;
  token_id: number;
  key: string;
  request_hash: string;
  /** An upload's content digest, recorded once the upload was read (src/http/idempotency.ts). */
  body_digest: string | null;
  /** `in_progress`, `completed` (its response kept) or `unanswered` (carried out, its response lost). */
  state: string;
  /** When the request committed its changes, in the same commit (null while it has committed none). */
  committed_at: Timestamp | null;
  response_status: number | null;
  response_headers: Json | null;
  response_body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface JobTable {
  id: Generated<number>;
  name: string;
  payload: Json;
  key: string | null;
  run_at: Timestamp;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  locked_by: string | null;
  locked_at: Timestamp | null;
  failed_at: Timestamp | null;
  /** The HTTP request (or job) that queued it. */
  request_id: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventTable {
  id: string;
  type: string;
  version: string;
  occurred_at: Timestamp;
  payload: Json;
}

export interface WebhookEndpointTable {
  id: Generated<number>;
  url: string;
  secret: string;
  events: Json | null;
  enabled: Bool;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationTable {
  id: Generated<number>;
  key: string;
  name: string;
  url: string;
  events: Json | null;
  auth_header: string | null;
  enabled: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationMessageTable {
  id: Generated<number>;
  integration_id: number;
  integration_key: string;
  event_id: string | null;
  event_type: string;
  payload: Json;
  status: string;
  attempts: number;
  max_attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  failed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScheduledTaskTable {
  id: Generated<number>;
  task_type: string;
  name: string;
  description: string;
  cron: string;
  enabled: Bool;
  last_run_at: Timestamp | null;
  next_run_at: Timestamp | null;
  /** The organization's time zone when next_run_at was computed (migration 0019); null before it was known. */
  schedule_timezone: string | null;
  last_outcome: string | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScheduledTaskRunTable {
  id: Generated<number>;
  task_id: number;
  trigger: string;
  status: string;
  scheduled_for: Timestamp | null;
  queued_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  error: string | null;
}

export interface HealthCheckTable {
  id: Generated<number>;
  name: string;
  component_type: string;
  description: string;
  enabled: Bool;
  warn_threshold: number | null;
  fail_threshold: number | null;
  timeout_ms: number;
  last_status: string | null;
  last_checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RuntimeStateTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** A staff user's signed-in session: only a hash of its id (the cookie's value) is stored. */
/** A staff user's passkey (a WebAuthn credential): its public key, never a private one. */
export interface PasskeyTable {
  id: Generated<number>;
  user_id: number;
  /** The credential's id, base64url, as the authenticator gives it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter (0 for most passkeys, which keep none). */
  counter: Generated<number>;
  /** JSON array of transports (internal, hybrid, usb…), offered back at sign-in. */
  transports: Generated<string>;
  /** Whether the passkey is synced by its provider (a multi-device credential). */
  backed_up: Generated<Bool>;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** A challenge a registration or a sign-in must sign: kept as a hash, used once. */
export interface WebauthnChallengeTable {
  id: Generated<number>;
  challenge_hash: string;
  /** register or sign_in */
  purpose: string;
  /** Whose passkey a registration is for; null for a sign-in (the passkey says whose it is). */
  user_id: number | null;
  expires_at: Timestamp;
}

export interface StaffSessionTable {
  id: Generated<number>;
  user_id: number;
  id_hash: string;
  /** How the user signed in: password, invitation, reset, passkey, sso. */
  method: string;
  created_at: Timestamp;
  /** Moved at most once a minute: the idle expiry counts from it. */
  last_seen_at: Timestamp;
  /** The absolute end (7 days after the sign-in). */
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  /** signed_out, ended_by_user, suspended, archived, password_changed, password_reset, administration. */
  ended_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** A one-time password-reset link, made when its email is sent: only a hash of its token is stored. */
export interface PasswordResetTable {
  id: Generated<number>;
  user_id: number;
  /** The email that carries the link; null for a link given otherwise (the demo's administrator). */
  notification_id: number | null;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A failed sign-in for an email (known or not): five in 15 minutes make further attempts wait. */
export interface SignInFailureTable {
  id: Generated<number>;
  email: string;
  at: Timestamp;
}

/** One change, written in its transaction (src/platform/audit.ts). */
export interface AuditEventTable {
  id: Generated<number>;
  occurred_at: Timestamp;
  /** user, token, operator, system. */
  actor_type: string;
  /** The user's or the token's id; null for the operator and the system. */
  actor_id: number | null;
  actor_name: string | null;
  /** `<resource>.<verb>`: course.transitioned, enrolment.cancelled. */
  action: string;
  subject_type: string;
  subject_id: number | null;
  /** api, console, cli, job. */
  via: string;
  request_id: string | null;
  ip: string | null;
  /** `{"field": [before, after]}`, never a secret; null when nothing is shown. */
  changes: Json | null;
}

export interface DB {
  organization: OrganizationTable;
  users: UserTable;
  student_counts: StudentCountTable;
  student_marks_name: StudentMarkTable;
  student_marks_email: StudentMarkTable;
  student_marks_created_at: StudentMarkTable;
  student_marks_updated_at: StudentMarkTable;
  student_terms: StudentTermTable;
  /** Each certificate once per term of its holder (migration 0039, src/db/holder-terms.ts). */
  certificate_terms: { term: string; id: number };
  /** Each enrolment once per term of its student (migration 0042, src/db/holder-terms.ts). */
  enrolment_terms: { term: string; id: number };
  /** PostgreSQL: each staff user once per term (migration 0041, src/db/student-terms.ts `STAFF`). */
  staff_terms: { term: string; id: number };
  student_words: { word: string };
  student_pairs: { second: string; first: string };
  student_domains: { domain: string };
  notifications: NotificationTable;
  user_invitations: UserInvitationTable;
  documents: DocumentTable;
  reports: ReportTable;
  api_tokens: ApiTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  jobs: JobTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  integrations: IntegrationTable;
  integration_messages: IntegrationMessageTable;
  scheduled_tasks: ScheduledTaskTable;
  scheduled_task_runs: ScheduledTaskRunTable;
  health_checks: HealthCheckTable;
  runtime_state: RuntimeStateTable;
  courses: CourseTable;
  course_applications: CourseApplicationTable;
  training_sessions: TrainingSessionTable;
  assessments: AssessmentTable;
  learning_resources: LearningResourceTable;
  meetings: MeetingTable;
  enrolments: EnrolmentTable;
  certificates: CertificateTable;
  workflow_instances: WorkflowInstanceTable;
  workflow_decisions: WorkflowDecisionTable;
  staff_sessions: StaffSessionTable;
  password_resets: PasswordResetTable;
  sign_in_failures: SignInFailureTable;
  audit_events: AuditEventTable;
  passkeys: PasskeyTable;
  webauthn_challenges: WebauthnChallengeTable;
}
