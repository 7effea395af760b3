/**
 * bench/rescreen.ts's customers in the database: one integrator and every generated customer (bench/screening.ts's
 * generators) as `users` and `entities` rows, SEED_CHUNK rows a statement, every other customer active.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/domain/ids.js';
import type { BenchCustomer } from '../screening.js';

const SEED_CHUNK = 5000;

/** A generated person as the API stores it: the name split so that personSubject joins it back as generated. */
function userInfo(c: BenchCustomer, i: number): Record<string, unknown> {
  const name = c.subject.names[0]!;
  const cut = name.indexOf(' ');
  const country = c.subject.countries?.[0] ?? 'USA';
  return {
    firstName: cut < 0 ? name : name.slice(0, cut),
    lastName: cut < 0 ? '' : name.slice(cut + 1),
    email: `customer.${i}@example.com`,
    phone: `+1415555${String(i % 10_000).padStart(4, '0')}`,
    birthDate: c.subject.birthDate,
    nationality: country,
    countryOfBirth: country,
    residentialAddress: { streetLine1: `${1 + (i % 999)} Market St`, city: 'San Francisco', state: 'US-CA', postalCode: '94105', country },
  };
}

/** A generated company as the API stores it. */
function entityInfo(c: BenchCustomer, i: number): Record<string, unknown> {
  const country = c.subject.countries?.[0] ?? 'USA';
  return {
    businessLegalName: c.subject.names[0],
    businessTradeName: c.subject.names[1],
    businessType: 'corporation',
    email: `company.${i}@example.com`,
    registeredAddress: { streetLine1: `${1 + (i % 999)} Harbour Rd`, city: 'Dubai', postalCode: '00000', country },
  };
}

/** One integrator and every customer, SEED_CHUNK rows a statement; every other customer active. */
export async function seed(database: Database, customers: BenchCustomer[]): Promise<{ users: number; entities: number }> {
  const integratorId = newId();
  await database.db.execute(sql`insert into integrators (id, name) values (${integratorId}, 'bench rescreen')`);
  const users: { id: string; info: Record<string, unknown>; status: string }[] = [];
  const entities: typeof users = [];
  customers.forEach((c, i) => {
    const status = i % 2 === 0 ? 'active' : 'under_review';
    if (c.subject.kind === 'entity') entities.push({ id: newId(), info: entityInfo(c, i), status });
    else users.push({ id: newId(), info: userInfo(c, i), status });
  });
  for (let i = 0; i < users.length; i += SEED_CHUNK) {
    const rows = JSON.stringify(users.slice(i, i + SEED_CHUNK));
    await database.db.execute(sql`
      insert into users (id, integrator_id, user_info, service_terms_signed_at, verification_status)
      select r.id, ${integratorId}::uuid, r.info, now(), r.status from jsonb_to_recordset(${rows}::jsonb) as r(id uuid, info jsonb, status text)`);
  }
  for (let i = 0; i < entities.length; i += SEED_CHUNK) {
    const rows = JSON.stringify(entities.slice(i, i + SEED_CHUNK));
    await database.db.execute(sql`
      insert into entities (id, integrator_id, entity_info, service_terms_signed_at, verification_status)
      select r.id, ${integratorId}::uuid, r.info, now(), r.status from jsonb_to_recordset(${rows}::jsonb) as r(id uuid, info jsonb, status text)`);
  }
  await database.db.execute(sql`analyze`);
  return { users: users.length, entities: entities.length };
}

