/**
 * `npm run bench` (package.json runs this file): whoami, get-associated-person-details and
 * create-individual-account on the API, beside the bare signature-verifying baseline. See bench/run.ts.
 */
import './run.js';
