declare module 'fastify' {
  interface FastifyInstance {
    /** ACADEMY_PUBLIC_URL: the base of absolute links, or null for relative ones. */
    publicUrl: string | null;
  }
}

/**
 * A link as clients get it: a path (with its query) is made absolute under the configured public URL,
 * and otherwise stays relative, to be resolved against the URL the client used. Never built from
 * the request's Host header, which the client chooses (and may leave out or garble).
 */
export function publicLink(publicUrl: string | null, target: string): string {
  return publicUrl !== null && target.startsWith('/') ? `${publicUrl}${target}` : target;
}
