// One module per aggregate; drizzle-kit reads this index (drizzle.config.ts).
export * from './integrators.js';
export * from './events.js';
export * from './requests.js';
export * from './customers.js';
export * from './entities.js';
export * from './documents.js';
export * from './verification-status.js';
export * from './verification.js';
export * from './operators.js';
export * from './findings.js';
export * from './webhooks.js';
export * from './transactions.js';
export * from './otp.js';
export * from './bank-accounts.js';
export * from './withdrawals.js';
export * from './members.js';
export * from './products.js';
