import { type Decision, POLICIES, type PolicyName } from '../platform/rate-limit.ts';

/** 429s answered by this process, by policy (the metric academy_rate_limited_requests_total). */
export const rateLimitRefusals = new Map<PolicyName, number>();

/** The texts of a policy's fields that do not change from one request to the next, made once per limit. */
interface PolicyTexts {
  limit: number;
  /** `RateLimit-Policy`. */
  policy: string;
  /** `X-RateLimit-Limit`. */
  limitText: string;
  /** The start of `RateLimit`, up to the remaining count. */
  remainingPrefix: string;
}

const policyTexts = new Map<PolicyName, PolicyTexts>();
function textsOf(policyName: PolicyName, limit: number): PolicyTexts {
  let texts = policyTexts.get(policyName);
  if (texts?.limit !== limit) {
    const policy = POLICIES[policyName];
    texts = {
      limit,
      policy: `"${policy.name}";q=${limit};w=${policy.windowSeconds}`,
      limitText: String(limit),
      remainingPrefix: `"${policy.name}";r=`,
    };
    policyTexts.set(policyName, texts);
  }
  return texts;
}

/**
 * `X-RateLimit-Reset`, a Unix time: the same few values for a second on end, and too large for V8's
 * small integers, so that each would be converted from a double on every request.
 */
let resetAt = Number.NaN;
let resetText = '';
function resetHeader(at: number): string {
  if (at !== resetAt) {
    resetAt = at;
    resetText = String(at);
  }
  return resetText;
}

/** Sets the rate-limit fields of an allowed request on the reply one by one (no object per request). */
export function setRateLimitHeaders(
  reply: { header(name: string, value: string): unknown },
  policyName: PolicyName,
  d: Decision,
  nowMs: number,
): void {
  const texts = textsOf(policyName, d.limit);
  const remaining = String(d.remaining);
  reply.header('ratelimit-policy', texts.policy);
  reply.header('ratelimit', `${texts.remainingPrefix}${remaining};t=${d.resetSeconds}`);
  reply.header('x-ratelimit-limit', texts.limitText);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', resetHeader(Math.ceil(nowMs / 1000) + d.resetSeconds));
}

/** The IETF draft-ietf-httpapi-ratelimit-headers-11 fields plus the common X-RateLimit-* ones. */
export function rateLimitHeaders(policyName: PolicyName, d: Decision, now: Date): Record<string, string> {
  const policy = POLICIES[policyName];
  const headers: Record<string, string> = {
    'ratelimit-policy': `"${policy.name}";q=${d.limit};w=${policy.windowSeconds}`,
    ratelimit: `"${policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(Math.ceil(now.getTime() / 1000) + d.resetSeconds),
  };
  if (!d.allowed) headers['retry-after'] = String(d.resetSeconds);
  return headers;
}
