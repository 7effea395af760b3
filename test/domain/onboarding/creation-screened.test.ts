import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ROOT } from '../../harness/root.js';

/*
 * A customer row is written by one of three repository functions; every domain file that calls one screens the new
 * customer in the same transaction (checkIfEnteredReview, which screens it whether or not it enters review). A new
 * creation path that forgets the screening fails here before a reviewer finds it (entities once did: issue 51).
 * test/http/creation-screening.test.ts shows each path's hit through the API.
 */
const CREATORS = /\binsert(User|Entity|Person)\(/;

it('every domain file that inserts a user, an entity or an associated person screens it', () => {
  const root = join(ROOT, 'src/domain');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const creating = files.filter((f) => CREATORS.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(creating.sort(), ['onboarding/entities/entity-accounts.ts', 'onboarding/persons/associated-persons.ts', 'onboarding/users/create-user.ts'], 'a new creation path: screen it, test it in test/http/creation-screening.test.ts and list it here');
  // A new customer was 'not_started' before: the call screens it, and runs the checks when it was created complete.
  for (const file of creating) assert.ok(/\bcheckIfEnteredReview\(tx, .*'not_started'/.test(readFileSync(join(root, file), 'utf8')), `${file} does not screen what it creates`);
});
