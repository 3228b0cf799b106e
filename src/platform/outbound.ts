import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';

/**
 * The outbound-HTTP port used by webhook and integration deliveries. It refuses targets on loopback,
 * private, link-local, unique-local, multicast and other non-public ranges unless private targets are
 * allowed: at creation time (`targetProblem`) and again on every request, twice: inside the
 * connection's own DNS lookup, and on the connected socket's remote address (which also covers a
 * kept-alive socket that is reused without a new lookup).
 */

/** Words for ipaddr.js's range names in refusals; a range not listed here is called "reserved". */
const KINDS: Record<string, string> = {
  unspecified: 'unspecified',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  private: 'private',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  teredo: 'Teredo tunnel',
  benchmarking: 'benchmarking',
};

const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// ipaddr.js calls every address outside its special ranges "unicast", including the unallocated and
// deprecated parts of ::/8 (e.g. IPv4-compatible ::7f00:1); only 2000::/3 is allocated for the Internet.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv4At(bytes: number[], start: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(start, start + 4));
}

/** Why an address is not a public unicast one (e.g. "loopback"), or null when it is public. */
export function nonPublicKind(address: string): string | null {
  if (isIP(address) === 0) return 'invalid';
  // process() turns an IPv4-mapped address (::ffff:a.b.c.d) into the IPv4 address it reaches.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (ip.kind() === 'ipv4') return range === 'unicast' ? null : (KINDS[range] ?? 'reserved');
  const bytes = ip.toByteArray();
  // Addresses that carry an IPv4 address reach that IPv4 host (through a translator or a relay).
  if (range === 'rfc6145') return nonPublicKind(ipv4At(bytes, 12).toString()); // IPv4-translated ::ffff:0:a.b.c.d
  if (range === '6to4') return nonPublicKind(ipv4At(bytes, 2).toString()); // 2002:aabb:ccdd::/48
  if (range === 'rfc6052') {
    // The local-use NAT64 prefix 64:ff9b:1::/48 places the IPv4 address where the network's operator
    // chose: it cannot be read reliably, so the prefix is refused as a whole.
    return ip.match(WELL_KNOWN_NAT64) ? nonPublicKind(ipv4At(bytes, 12).toString()) : 'local-use NAT64';
  }
  if (range !== 'unicast') return KINDS[range] ?? 'reserved';
  return ip.match(GLOBAL_UNICAST) ? null : 'reserved';
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
        if (!options.allowPrivateTargets) {
          // The address actually connected to is checked too: a kept-alive socket is reused without a
          // lookup, and a socket opened by any other path must not reach a private address either.
          request.on('socket', (socket: Socket) => {
            const check = () => {
              const address = socket.remoteAddress ?? '';
              const kind = nonPublicKind(address);
              if (kind) request.destroy(new TargetRefusedError(refusal(host, address, kind)));
            };
            if (socket.connecting) socket.once('connect', check);
            else check();
          });
        }
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
        return {
          response,
          failure: response.status >= 200 && response.status < 300 ? null : describeResponse(response),
          refused: false,
        };
      } catch (error) {
        return { response: null, failure: describeFailure(error), refused: error instanceof TargetRefusedError };
      }
    },
  };
}

export interface Attempt {
  response: OutboundResponse | null;
  /** `null` for a 2xx answer. */
  failure: string | null;
  /** The target was refused (e.g. it now resolves to a private address): nothing was sent. */
  refused: boolean;
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
