import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis tests use: TEST_REDIS_URL, else the one the development machines run on 127.0.0.1:6379. */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
}

/**
 * Whether that Redis answers a PING within five seconds (the tests that need it skip otherwise). A Redis that is not
 * there refuses the connection at once; half a second was once too short for a loaded test process, whose test then
 * skipped with Redis running. With REQUIRE_REDIS=1 (CI, when Redis answered before the tests) no answer is an error.
 */
export async function redisAnswers(url = testRedisUrl()): Promise<boolean> {
  const answers = await pingRedis(url);
  // CI found one answering before the tests (.ci/run): a skip there would hide a broken connection.
  if (!answers && process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but no Redis answered a PING at ${url}`);
  return answers;
}

function pingRedis(url: string): Promise<boolean> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(5_000);
    socket.once('connect', () => socket.write('PING\r\n'));
    // A Redis that wants a password answers -NOAUTH: it is there, and the URL carries what the tests need.
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** A REDIS_KEY_PREFIX of its own for a test run, so that runs sharing one Redis never count each other's requests. */
export function uniqueRedisPrefix(): string {
  return `test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}:`;
}

/** The keys under a prefix and their values, read and then deleted. */
export async function takeRedisKeys(prefix: string, url = testRedisUrl()): Promise<Map<string, string | null>> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const found = new Map<string, string | null>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) found.set(key, await redis.get(key));
    } while (cursor !== '0');
    if (found.size > 0) await redis.del(...found.keys());
    return found;
  } finally {
    redis.disconnect();
  }
}
