/**
 * The request body examples of the integrators' OpenAPI document: what /docs pre-fills in Try it out and what a
 * reader copies, one for every operation that takes a JSON body. Ids are placeholders (EXAMPLE_IDS), and so are the
 * values made per request (EXAMPLE_VALUES: passkey stamps, approval tokens, unsigned transactions), which the
 * operation's description says how to make. test/http/openapi-request-examples.test.ts sends every example with
 * real values swapped in and expects a success; an example without placeholders is sent exactly as written.
 */
import { CUSTOMER_EXAMPLES } from './request-examples-customers.js';
import { MEMBER_EXAMPLES, MEMBER_EXAMPLE_NOTES } from './request-examples-members.js';
import { MONEY_EXAMPLES, MONEY_EXAMPLE_NOTES } from './request-examples-money.js';
import { POLICY_EXAMPLE_NOTES, POLICY_EXAMPLES } from './request-examples-policies.js';

export { EXAMPLE_IDS, EXAMPLE_VALUES } from './request-examples-ids.js';

export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = { ...CUSTOMER_EXAMPLES, ...MEMBER_EXAMPLES, ...MONEY_EXAMPLES, ...POLICY_EXAMPLES };

/** What the description of an operation whose example holds per-request values adds: which SDK helper makes them. */
export const REQUEST_EXAMPLE_NOTES: Record<string, string> = { ...MEMBER_EXAMPLE_NOTES, ...MONEY_EXAMPLE_NOTES, ...POLICY_EXAMPLE_NOTES };
