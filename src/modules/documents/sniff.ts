import { fileTypeFromBuffer } from 'file-type';

/** How much of a file's beginning is read to tell its type (office formats need their first zip entries). */
export const SNIFF_BYTES = 64 * 1024;

/** Whether `head` reads as UTF-8 text: it decodes strictly and has no NUL or other C0 control but tab, CR, LF, FF. */
function isText(head: Uint8Array, complete: boolean): boolean {
  // A multi-byte character cut at the end of the sample is not an error.
  let end = head.length;
  if (!complete) {
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && ((head[end - back - 1] as number) & 0xc0) === 0x80) back++;
    if (end - back - 1 >= 0 && (head[end - back - 1] as number) >= 0xc0) end = end - back - 1;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Tab, LF, FF and CR are text; every other C0 control and DEL are not.
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/**
 * The media type of a file from its first bytes (`complete` when they are the whole file): its
 * signature (magic bytes, through `file-type`) when it has one. Text formats have none: UTF-8 text
 * without control characters is `text/csv` when the client declared CSV (or named a `.csv` file),
 * else `text/plain`. Anything else is `application/octet-stream`. The client's claim never makes a
 * file what its content is not: a PDF declared `image/png` is `application/pdf`.
 */
export async function sniffMediaType(
  head: Uint8Array,
  complete: boolean,
  declared: { mediaType?: string; filename?: string },
): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  if (head.length > 0 && isText(head, complete)) {
    const csv = declared.mediaType?.toLowerCase().startsWith('text/csv') || /\.csv$/i.test(declared.filename ?? '');
    return csv ? 'text/csv' : 'text/plain';
  }
  return 'application/octet-stream';
}
