// Request bodies sent with `content-encoding: zstd` (the Nixtla SDK compresses bodies over 1 MiB), read
// through a streaming decompressor under the same body limit as a plain body: the count is of the
// decompressed bytes, so a small body that inflates past the limit (a zstd bomb) is a 413 once the limit
// is passed, never a buffer of its full size. The window the decoder may allocate is bounded by the
// limit too (a body never needs a window larger than itself).
import { createZstdDecompress, constants } from 'node:zlib';
import { Transform, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { HorizonError } from '../../errors.ts';

/** The stream Fastify's body reader takes: the decompressed bytes; `receivedEncodedLength` counts the
 * bytes on the wire (Fastify compares them with content-length). */
type BodyStream = Transform & { receivedEncodedLength: number };

export function decodeBody(request: FastifyRequest, payload: Readable, limit: number): Readable {
  const encoding = String(request.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return payload;
  if (encoding !== 'zstd') {
    throw new HorizonError('unsupported_media_type', `content-encoding "${encoding}" is not supported; send the body as is or zstd-compressed ` +
      `(content-encoding: zstd)`);
  }
  const windowLogMax = Math.min(27, Math.max(20, Math.ceil(Math.log2(Math.max(limit, 1)))));
  const inflate = createZstdDecompress({ params: { [constants.ZSTD_d_windowLogMax]: windowLogMax } });
  let decoded = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length;
      if (decoded > limit) callback(new HorizonError('payload_too_large', `the zstd body decompresses to more than the limit of ${limit} bytes ` +
        `(HORIZON_BODY_LIMIT_BYTES)`));
      else callback(null, chunk);
    },
  }) as BodyStream;
  body.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => { body.receivedEncodedLength += chunk.length; });
  // whatever fails first ends the others: the decompressor stops, the rest of the upload is discarded
  const stop = () => { payload.unpipe(inflate); inflate.destroy(); payload.resume(); };
  inflate.on('error', (error: Error) => { stop(); body.destroy(new HorizonError('bad_content_encoding', `the body is not valid zstd (content-encoding: ` +
    `zstd): ${error.message}`)); });
  payload.on('error', (error: Error) => { stop(); body.destroy(error); });
  body.on('error', stop);
  payload.pipe(inflate).pipe(body);
  return body;
}
