/** The console's addresses of students, certificates and imports (shared by their pages). */

export const studentPath = (id: number) => `/console/students/${id}`;

export const certificatePath = (id: number) => `/console/certificates/${id}`;

export const importPath = (id: string) => `/console/students/import/${id}`;

/** The public verification of a certificate (GET /api/v1/certificates/verify/{token}), absolute under the public URL when known. */
export function verificationUrl(publicUrl: string | null, token: string): string {
  return `${publicUrl ?? ''}/api/v1/certificates/verify/${encodeURIComponent(token)}`;
}

/** An id from a path (1 up to the largest id), or null: a malformed id is the 404 of a missing one. */
export function idOf(value: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}
