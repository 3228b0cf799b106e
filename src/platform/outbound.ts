import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.ts';

/**
 * The outbound-HTTP port used by webhook and integration deliveries. It refuses targets on loopback,
 * private, link-local, unique-local, multicast and other non-public ranges unless private targets are
 * allowed: at creation time (`targetProblem`) and again on every request, where the check runs inside
 * the connection's own DNS lookup, so the address that was checked is the one connected to (a DNS
 * rebinding between check and connect is not possible).
 */

const RANGES: [string, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared (carrier-grade NAT)', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['documentation', '192.0.2.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['benchmarking', '198.18.0.0', 15, 'ipv4'],
  ['documentation', '198.51.100.0', 24, 'ipv4'],
  ['documentation', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['discard-only', '100::', 64, 'ipv6'],
  ['documentation', '2001:db8::', 32, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['site-local', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const blocks = new Map<string, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = blocks.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  blocks.set(kind, list);
}

/** The eight 16-bit groups of an IPv6 address (embedded dotted IPv4 included). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

function embeddedIPv4(groups: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses reach the IPv4 host.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    if (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1))) return v4(g6, g7);
  }
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address too.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1 ?? 0, g2 ?? 0);
  return null;
}

/** Why an address is not a public unicast one (e.g. "loopback"), or null when it is public. */
export function nonPublicKind(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'invalid';
  if (family === 6) {
    const v4 = embeddedIPv4(ipv6Groups(address));
    if (v4) return nonPublicKind(v4);
  }
  for (const [kind, list] of blocks) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  }
  return null;
}

/** A delivery was not attempted because its target is not allowed. */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export class OutboundTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The first few kilobytes of the body, for diagnostics. */
  body: string;
}

export interface OutboundOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

const MAX_BODY_BYTES = 16 * 1024;

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function refusal(host: string, address: string, kind: string): string {
  // The resolved address is not named: this text reaches API clients as a message's last_error.
  const what = host === address ? `The host ${host} is a ${kind} address` : `The host ${host} resolves to a ${kind} address`;
  return `${what}; only public addresses are allowed. Set ACADEMY_ALLOW_PRIVATE_TARGETS=true to allow private targets.`;
}

/**
 * A DNS lookup for the connection itself that refuses the host when any of its addresses is not
 * public: the checked address is the one the socket connects to.
 */
function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    for (const { address } of addresses) {
      const kind = nonPublicKind(address);
      if (kind) return callback(new TargetRefusedError(refusal(hostname, address, kind)), '');
    }
    const first = addresses[0];
    if (!first) return callback(new Error(`no address found for ${hostname}`), '');
    if (options.all) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
}

export function createOutbound(options: OutboundOptions) {
  function syntaxProblem(raw: string): { url: URL } | { problem: string } {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { problem: 'The URL is not a valid absolute URL.' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'The URL must use http or https.' };
    if (url.username || url.password) return { problem: 'The URL must not contain credentials.' };
    return { url };
  }

  return {
    /**
     * Why `raw` cannot be a delivery target, or null. Without ACADEMY_ALLOW_PRIVATE_TARGETS the host
     * must be public: an address literal is checked directly, a name is resolved and every address
     * checked. A name that does not resolve now is accepted (each delivery checks again).
     */
    async targetProblem(raw: string): Promise<string | null> {
      const parsed = syntaxProblem(raw);
      if ('problem' in parsed) return parsed.problem;
      if (options.allowPrivateTargets) return null;
      const host = hostOf(parsed.url);
      if (host === 'localhost' || host.endsWith('.localhost')) return refusal(host, host, 'loopback');
      if (isIP(host)) {
        const kind = nonPublicKind(host);
        return kind ? refusal(host, host, kind) : null;
      }
      let addresses: LookupAddress[];
      try {
        addresses = await dnsLookupAsync(host, { all: true });
      } catch {
        return null;
      }
      for (const { address } of addresses) {
        const kind = nonPublicKind(address);
        if (kind) return refusal(host, address, kind);
      }
      return null;
    },

    /**
     * POSTs `body` to `raw` with a per-attempt timeout covering connect, request and response.
     * Redirects are not followed (a 3xx is an answer like any other). Rejects with
     * TargetRefusedError, OutboundTimeoutError or the network error.
     */
    post(raw: string, body: string, headers: Record<string, string>): Promise<OutboundResponse> {
      const parsed = syntaxProblem(raw);
      if ('problem' in parsed) return Promise.reject(new TargetRefusedError(parsed.problem));
      const { url } = parsed;
      const host = hostOf(url);
      if (!options.allowPrivateTargets && isIP(host)) {
        const kind = nonPublicKind(host);
        if (kind) return Promise.reject(new TargetRefusedError(refusal(host, host, kind)));
      }
      const signal = AbortSignal.timeout(options.timeoutMs);
      const client = url.protocol === 'https:' ? https : http;
      return new Promise((resolve, reject) => {
        const fail = (error: unknown) =>
          reject(signal.aborted ? new OutboundTimeoutError(options.timeoutMs) : error instanceof Error ? error : new Error(String(error)));
        const request = client.request(
          url,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            signal,
            ...(options.allowPrivateTargets ? {} : { lookup: guardedLookup as never }),
          },
          (response) => {
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              // Only the start of the body is kept; the rest is read and dropped so the socket closes cleanly.
              if (size < MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
              size += chunk.length;
            });
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
            );
            response.on('error', fail);
          },
        );
        request.on('error', fail);
        request.end(body);
      });
    },

    /**
     * One delivery attempt: the answer (if any) and, unless it was a 2xx, what went wrong, in the
     * words recorded as `last_error`.
     */
    async attempt(raw: string, body: string, headers: Record<string, string>): Promise<Attempt> {
      try {
        const response = await this.post(raw, body, headers);
        return { response, failure: response.status >= 200 && response.status < 300 ? null : describeResponse(response) };
      } catch (error) {
        return { response: null, failure: describeFailure(error) };
      }
    },
  };
}

export interface Attempt {
  response: OutboundResponse | null;
  /** `null` for a 2xx answer. */
  failure: string | null;
}

export type Outbound = ReturnType<typeof createOutbound>;

export function outboundFor(config: Config): Outbound {
  return createOutbound({ timeoutMs: config.outboundTimeoutMs, allowPrivateTargets: config.allowPrivateTargets });
}

/** Longest wait a receiver's Retry-After can ask for. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** A Retry-After header (delay in seconds or an HTTP date) as a delay in ms, capped; null if absent or invalid. */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  let delay: number;
  if (/^\d+$/.test(raw)) delay = Number(raw) * 1000;
  else {
    // HTTP dates start with the day name; this keeps Date.parse from reading e.g. "-5" as a year.
    if (!/^[A-Za-z]{3}/.test(raw)) return null;
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return null;
    delay = at - now.getTime();
  }
  return Math.min(Math.max(delay, 0), MAX_RETRY_AFTER_MS);
}

/** A short description of a failed attempt, for `last_error`. */
export function describeFailure(error: unknown): string {
  if (error instanceof TargetRefusedError || error instanceof OutboundTimeoutError) return error.message;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 500);
}

/** `last_error` for a non-2xx answer: the status and the start of the body. */
export function describeResponse(response: OutboundResponse): string {
  const snippet = response.body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`;
}
