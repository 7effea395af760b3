import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

// Response compression (docs/compression.md): negotiated from Accept-Encoding, brotli preferred over gzip, for JSON,
// HTML, CSS, JavaScript and SVG answers of at least COMPRESSION_THRESHOLD_BYTES. Request bodies are never inflated:
// a signature covers the bytes sent, the body limits count those bytes, and a small gzip body can inflate to
// gigabytes, so a Content-Encoding on a request is ignored as before.

/**
 * Below this an answer goes as is: it fits one TCP segment anyway, and compressing it costs 50-60 µs of CPU (the
 * encoder's set-up) for no saved round trip. whoami's 1.9 kB answer is compressed (to 0.75 kB).
 */
export const COMPRESSION_THRESHOLD_BYTES = 1400;

/** Above this an answer is compressed as a stream on libuv's pool, off the event loop (the OpenAPI documents). */
export const SYNC_COMPRESSION_MAX_BYTES = 256 * 1024;

/** The types worth compressing; documents (PDF, images) are compressed already or kept byte for byte. */
const COMPRESSIBLE = /^(?:text\/(?:html|css|plain|javascript|markdown|yaml)|application\/(?:[\w.-]+\+)?json|application\/javascript|image\/svg\+xml)(?:;|$)/;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    // Compressed in one call up to this size: the plugin's default on two cores (8 kB) sent a 44 kB page of events
    // through a zlib stream on the thread pool, at 1 ms (gzip) to 10 ms (brotli) of CPU against 0.1 ms in one call
    // (docs/benchmarks.md#compression). Our largest JSON answers (a page of 100 records) are well under it.
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    customTypes: COMPRESSIBLE,
    // Quality 3: as small as 4 on our JSON at 40 % of its CPU (docs/benchmarks.md#compression).
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
    zlibOptions: { level: 6 },
  });
}
