import { customType } from 'drizzle-orm/pg-core';

/** Binary column. PGlite hands back Uint8Array and node-postgres Buffer; both become Buffer here. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
