import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { backends } from '../harness/backends.js';
import { berliner, californian, companyInfo, dataUrl, doc, entityDocs, pdf, personDocs, png, signedAt } from '../harness/fixtures.js';
import { assertFieldErrors } from '../harness/field-errors.js';
import { useTenants } from '../harness/tenants.js';
import type { FieldError, Problem } from '../harness/types.js';

type Endpoint = 'create-user' | 'create-individual-account' | 'create-entity-account' | 'update-entity-account' | 'create-associated-person' | 'update-associated-person';

const PATHS: Record<Endpoint, { method: 'post' | 'patch'; path: string }> = {
  'create-user': { method: 'post', path: '/v1/submit/create-user' },
  'create-individual-account': { method: 'post', path: '/v1/submit/create-individual-account' },
  'create-entity-account': { method: 'post', path: '/v1/submit/create-entity-account' },
  'update-entity-account': { method: 'patch', path: '/v1/submit/update-entity-account' },
  'create-associated-person': { method: 'post', path: '/v1/submit/create-associated-person' },
  'update-associated-person': { method: 'patch', path: '/v1/submit/update-associated-person' },
};
const ENDPOINTS = Object.keys(PATHS) as Endpoint[];
/** Endpoints whose body carries a userInfo. */
const PERSON: Endpoint[] = ['create-user', 'create-individual-account', 'create-associated-person', 'update-associated-person'];
/** Endpoints of individual KYC (additionalUserInfo). */
const INDIVIDUAL: Endpoint[] = ['create-user', 'create-individual-account'];
const ENTITY: Endpoint[] = ['create-entity-account', 'update-entity-account'];
const SIGNS_TERMS: Endpoint[] = ['create-user', 'create-individual-account', 'create-entity-account'];

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** The same address with the case of one letter flipped (the E of "E7Ef" made lower case): a broken EIP-55 checksum. */
const BAD_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435e7Ef1BeAed';
const MIB = 1024 * 1024;

const additionalUserInfo = () => ({ employmentStatus: 'employed', expectedMonthlyPaymentsUsd: '1000_5000', sourceOfFunds: 'salary', mostRecentOccupation: '15-0000' });
const documentsField = (endpoint: Endpoint) => (ENTITY.includes(endpoint) ? 'entityDocuments' : 'verificationDocuments');

/** A calendar date `years` years and six months before `now`: someone exactly `years` years old. */
function bornYearsAgo(years: number, now: Date): string {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCMonth(d.getUTCMonth() - 6);
  return d.toISOString().slice(0, 10);
}

const bigDocuments = new Map<number, string>();
/** A PDF of exactly `size` bytes, as a data URL; each size is built once. */
function pdfOfSize(size: number): string {
  let url = bigDocuments.get(size);
  if (url === undefined) {
    const bytes = Buffer.alloc(size, 0x20);
    Buffer.from('%PDF-1.4\n').copy(bytes);
    url = dataUrl('application/pdf', bytes);
    bigDocuments.set(size, url);
  }
  return url;
}

interface Context {
  now: Date;
  entityAccountId: string;
  beneficiaryId: string;
}

interface Rule {
  rule: string;
  endpoints: readonly Endpoint[];
  mutate: (body: any, ctx: Context, endpoint: Endpoint) => void;
  /** The one expected error. */
  pointer: string | ((endpoint: Endpoint) => string);
  code: string;
  /** The problem's own code when it is not validation_failed. */
  problem?: string;
}

const address = (body: any) => body.userInfo.residentialAddress;
const highRisk = (body: any) => body.entityInfo.highRiskInfo;

const RULES: Rule[] = [
  // CountryCode: only the spec's list.
  { rule: 'nationality XXX (no such country)', endpoints: PERSON, mutate: (b) => (b.userInfo.nationality = 'XXX'), pointer: '/userInfo/nationality', code: 'invalid_value' },
  { rule: 'nationality SSD (real, not in the spec list)', endpoints: PERSON, mutate: (b) => (b.userInfo.nationality = 'SSD'), pointer: '/userInfo/nationality', code: 'invalid_value' },
  { rule: 'countryOfBirth SSD', endpoints: PERSON, mutate: (b) => (b.userInfo.countryOfBirth = 'SSD'), pointer: '/userInfo/countryOfBirth', code: 'invalid_value' },
  { rule: 'registeredAddress.country XXX', endpoints: ENTITY, mutate: (b) => (b.entityInfo.registeredAddress.country = 'XXX'), pointer: '/entityInfo/registeredAddress/country', code: 'invalid_value' },
  {
    rule: 'document issuingCountry SSD',
    endpoints: ENDPOINTS,
    mutate: (b, _c, e) => (b[documentsField(e)][0].issuingCountry = 'SSD'),
    pointer: (e) => `/${documentsField(e)}/0/issuingCountry`,
    code: 'invalid_value',
  },

  // Address.
  { rule: 'US address without state', endpoints: PERSON, mutate: (b) => delete address(b).state, pointer: '/userInfo/residentialAddress/state', code: 'required' },
  { rule: 'US address with state null', endpoints: PERSON, mutate: (b) => (address(b).state = null), pointer: '/userInfo/residentialAddress/state', code: 'required' },
  { rule: 'US registeredAddress without state', endpoints: ENTITY, mutate: (b) => delete b.entityInfo.registeredAddress.state, pointer: '/entityInfo/registeredAddress/state', code: 'required' },
  { rule: 'US state CA (not ISO 3166-2)', endpoints: PERSON, mutate: (b) => (address(b).state = 'CA'), pointer: '/userInfo/residentialAddress/state', code: 'invalid_subdivision' },
  { rule: 'US state DE-BE (another country’s)', endpoints: PERSON, mutate: (b) => (address(b).state = 'DE-BE'), pointer: '/userInfo/residentialAddress/state', code: 'invalid_subdivision' },
  { rule: 'US physicalAddress state CA', endpoints: ENTITY, mutate: (b) => (b.entityInfo.physicalAddress.state = 'CA'), pointer: '/entityInfo/physicalAddress/state', code: 'invalid_subdivision' },
  {
    rule: 'German address with a non-German state',
    endpoints: PERSON,
    mutate: (b) => (b.userInfo.residentialAddress = { streetLine1: 'Unter den Linden 77', city: 'Berlin', state: 'US-CA', postalCode: '10117', country: 'DEU' }),
    pointer: '/userInfo/residentialAddress/state',
    code: 'invalid_subdivision',
  },
  { rule: 'US postalCode 9410', endpoints: PERSON, mutate: (b) => (address(b).postalCode = '9410'), pointer: '/userInfo/residentialAddress/postalCode', code: 'invalid_postal_code' },
  { rule: 'US registeredAddress postalCode 9410', endpoints: ENTITY, mutate: (b) => (b.entityInfo.registeredAddress.postalCode = '9410'), pointer: '/entityInfo/registeredAddress/postalCode', code: 'invalid_postal_code' },
  {
    rule: 'UK postcode ABC 123',
    endpoints: PERSON,
    mutate: (b) => (b.userInfo.residentialAddress = { streetLine1: '10 Downing Street', city: 'London', postalCode: 'ABC 123', country: 'GBR' }),
    pointer: '/userInfo/residentialAddress/postalCode',
    code: 'invalid_postal_code',
  },

  // Dates and age.
  { rule: 'birthDate 2023-02-30', endpoints: PERSON, mutate: (b) => (b.userInfo.birthDate = '2023-02-30'), pointer: '/userInfo/birthDate', code: 'invalid_date' },
  {
    rule: 'birthDate in the future',
    endpoints: PERSON,
    mutate: (b, c) => (b.userInfo.birthDate = new Date(c.now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10)),
    pointer: '/userInfo/birthDate',
    code: 'invalid_date',
  },
  { rule: 'age 17', endpoints: PERSON, mutate: (b, c) => (b.userInfo.birthDate = bornYearsAgo(17, c.now)), pointer: '/userInfo/birthDate', code: 'age_out_of_range' },
  // The individual bases carry additionalUserInfo, so being over 60 breaks no other rule.
  { rule: 'age 121', endpoints: PERSON, mutate: (b, c) => (b.userInfo.birthDate = bornYearsAgo(121, c.now)), pointer: '/userInfo/birthDate', code: 'age_out_of_range' },

  // Contact data.
  { rule: 'email not-an-email', endpoints: PERSON, mutate: (b) => (b.userInfo.email = 'not-an-email'), pointer: '/userInfo/email', code: 'invalid_email' },
  { rule: 'phone without + (4155552671)', endpoints: PERSON, mutate: (b) => (b.userInfo.phone = '4155552671'), pointer: '/userInfo/phone', code: 'invalid_phone' },
  { rule: 'phone too short (+1415555)', endpoints: PERSON, mutate: (b) => (b.userInfo.phone = '+1415555'), pointer: '/userInfo/phone', code: 'invalid_phone' },
  { rule: 'profilePictureUrl ftp://x', endpoints: PERSON, mutate: (b) => (b.userInfo.profilePictureUrl = 'ftp://x'), pointer: '/userInfo/profilePictureUrl', code: 'invalid_url' },

  // SSN.
  { rule: 'SSN missing for a US resident', endpoints: PERSON, mutate: (b) => delete b.userInfo.socialSecurityNumber, pointer: '/userInfo/socialSecurityNumber', code: 'required' },
  ...['000-12-3456', '666-12-3456', '900-12-3456', '123-00-4567', '123-45-0000', '12-345-6789'].map(
    (ssn): Rule => ({ rule: `SSN ${ssn}`, endpoints: PERSON, mutate: (b) => (b.userInfo.socialSecurityNumber = ssn), pointer: '/userInfo/socialSecurityNumber', code: 'invalid_ssn' }),
  ),

  // additionalUserInfo.
  ...(
    [
      ['a user born 1950', 'birthDate', '1950-06-15'],
      ['a VEN national', 'nationality', 'VEN'],
    ] as const
  ).map(
    ([who, field, value]): Rule => ({
      rule: `no additionalUserInfo for ${who}`,
      endpoints: INDIVIDUAL,
      mutate: (b) => {
        delete b.additionalUserInfo;
        b.userInfo[field] = value;
      },
      pointer: '/additionalUserInfo',
      code: 'additional_user_info_required',
      problem: 'additional_user_info_required',
    }),
  ),
  ...['employmentStatus', 'expectedMonthlyPaymentsUsd', 'sourceOfFunds', 'mostRecentOccupation'].map(
    (field): Rule => ({
      rule: `additionalUserInfo without ${field}`,
      endpoints: INDIVIDUAL,
      mutate: (b) => delete b.additionalUserInfo[field],
      pointer: `/additionalUserInfo/${field}`,
      code: 'required',
    }),
  ),
  {
    rule: 'expectedMonthlyPaymentsUsd 5000_1000 (low > high)',
    endpoints: INDIVIDUAL,
    mutate: (b) => (b.additionalUserInfo.expectedMonthlyPaymentsUsd = '5000_1000'),
    pointer: '/additionalUserInfo/expectedMonthlyPaymentsUsd',
    code: 'invalid_range',
  },

  // walletAddress.
  { rule: 'walletAddress with a bad EIP-55 checksum', endpoints: ['create-individual-account'], mutate: (b) => (b.walletAddress = BAD_CHECKSUM), pointer: '/walletAddress', code: 'invalid_checksum' },
  { rule: 'walletAddress of 39 hex digits', endpoints: ['create-individual-account'], mutate: (b) => (b.walletAddress = CHECKSUMMED.slice(0, -1).toLowerCase()), pointer: '/walletAddress', code: 'invalid_address' },

  // entityInfo.
  { rule: 'businessType mafia', endpoints: ENTITY, mutate: (b) => (b.entityInfo.businessType = 'mafia'), pointer: '/entityInfo/businessType', code: 'invalid_value' },
  {
    rule: 'estimatedAnnualRevenueUsd 10_5',
    endpoints: ENTITY,
    mutate: (b) => (b.entityInfo.financialInfo.estimatedAnnualRevenueUsd = '10_5'),
    pointer: '/entityInfo/financialInfo/estimatedAnnualRevenueUsd',
    code: 'invalid_range',
  },
  { rule: 'website javascript:alert(1)', endpoints: ENTITY, mutate: (b) => (b.entityInfo.website = 'javascript:alert(1)'), pointer: '/entityInfo/website', code: 'invalid_url' },
  { rule: 'businessIndustry 1.5', endpoints: ENTITY, mutate: (b) => (b.entityInfo.activityInfo.businessIndustry = 1.5), pointer: '/entityInfo/activityInfo/businessIndustry', code: 'invalid_type' },
  {
    rule: 'conductsMoneyServices true without a description',
    endpoints: ENTITY,
    mutate: (b) => (highRisk(b).conductsMoneyServices = true),
    pointer: '/entityInfo/highRiskInfo/conductsMoneyServicesDescription',
    code: 'required',
  },
  {
    rule: 'highRiskActivities gambling without an explanation',
    endpoints: ENTITY,
    mutate: (b) => (highRisk(b).highRiskActivities = 'gambling'),
    pointer: '/entityInfo/highRiskInfo/highRiskActivitiesExplanation',
    code: 'required',
  },

  // Unknown fields, top-level and nested.
  { rule: 'an unknown top-level field', endpoints: ENDPOINTS, mutate: (b) => (b.nickname = 'x'), pointer: '/nickname', code: 'unknown_field' },
  { rule: 'an unknown field in userInfo (ssn)', endpoints: PERSON, mutate: (b) => (b.userInfo.ssn = '123-45-6789'), pointer: '/userInfo/ssn', code: 'unknown_field' },
  { rule: 'an unknown field in activityInfo', endpoints: ENTITY, mutate: (b) => (b.entityInfo.activityInfo.foo = 1), pointer: '/entityInfo/activityInfo/foo', code: 'unknown_field' },
  { rule: 'an unknown field in a document', endpoints: ENDPOINTS, mutate: (b, _c, e) => (b[documentsField(e)][0].pages = 2), pointer: (e) => `/${documentsField(e)}/0/pages`, code: 'unknown_field' },

  // Documents.
  {
    rule: 'a document of media type image/gif',
    endpoints: ENDPOINTS,
    mutate: (b, _c, e) => (b[documentsField(e)][0].document = dataUrl('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))),
    pointer: (e) => `/${documentsField(e)}/0/document`,
    code: 'unsupported_media_type',
  },
  {
    rule: 'PNG bytes declared as application/pdf',
    endpoints: ENDPOINTS,
    mutate: (b, _c, e) => (b[documentsField(e)][0].document = dataUrl('application/pdf', png(4242))),
    pointer: (e) => `/${documentsField(e)}/0/document`,
    code: 'content_type_mismatch',
  },
  {
    rule: 'a document whose data is not base64',
    endpoints: ENDPOINTS,
    mutate: (b, _c, e) => (b[documentsField(e)][0].document = 'data:application/pdf;base64,JVBERi0x%%%%'),
    pointer: (e) => `/${documentsField(e)}/0/document`,
    code: 'invalid_base64',
  },
  {
    rule: 'a data URL without ;base64',
    endpoints: ENDPOINTS,
    mutate: (b, _c, e) => (b[documentsField(e)][0].document = `data:application/pdf,${pdf('no base64 marker').toString('base64')}`),
    pointer: (e) => `/${documentsField(e)}/0/document`,
    code: 'invalid_data_url',
  },
  {
    rule: 'an entity document type (incorporation_cert) for a person',
    endpoints: PERSON,
    mutate: (b) => (b.verificationDocuments[0].documentType = 'incorporation_cert'),
    pointer: '/verificationDocuments/0/documentType',
    code: 'invalid_value',
  },
  {
    rule: 'a user document type (passport) for an entity',
    endpoints: ENTITY,
    mutate: (b) => (b.entityDocuments[0].documentType = 'passport'),
    pointer: '/entityDocuments/0/documentType',
    code: 'invalid_value',
  },

  // serviceTermsSignedAt.
  {
    rule: 'serviceTermsSignedAt in the future',
    endpoints: SIGNS_TERMS,
    mutate: (b, c) => (b.serviceTermsSignedAt = new Date(c.now.getTime() + 86_400_000).toISOString()),
    pointer: '/serviceTermsSignedAt',
    code: 'invalid_date',
  },
];

for (const backend of backends()) {
  describe(`onboarding validation [${backend}]`, () => {
    const { server, tenants: [acme] } = useTenants(backend, ['Acme']);
    /** The entity and person the failing requests aim at (they must stay untouched). */
    let target: { entityAccountId: string; beneficiaryId: string };
    /** Another entity and person, for the base payloads that are really applied. */
    let probe: { entityAccountId: string; beneficiaryId: string };

    async function entityWithPerson(tag: string): Promise<{ entityAccountId: string; beneficiaryId: string }> {
      const entity = await acme.client.post('/v1/submit/create-entity-account', { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      assert.equal(entity.status, 201, entity.text);
      // A German representative without an SSN: the update base moves them to the USA and must give one.
      const person = await acme.client.post('/v1/submit/create-associated-person', {
        accountId: entity.body.accountId,
        userInfo: berliner({ email: `${tag}@example.de` }),
        beneficiaryDetails: { beneficiaryType: ['representative'], title: 'CEO' },
      });
      assert.equal(person.status, 201, person.text);
      return { entityAccountId: entity.body.accountId, beneficiaryId: person.body.beneficiaryId };
    }

    before(async () => {
      target = await entityWithPerson('target');
      probe = await entityWithPerson('probe');
    });

    /** A valid body for each endpoint; fresh documents each call. */
    function base(endpoint: Endpoint, on: { entityAccountId: string; beneficiaryId: string }): any {
      switch (endpoint) {
        case 'create-user':
          return {
            userInfo: californian({ email: 'base.user@example.com' }),
            partnerSignedAgreementId: 'agr_2026_base',
            serviceTermsSignedAt: signedAt(),
            additionalUserInfo: additionalUserInfo(),
            verificationDocuments: personDocs(),
          };
        case 'create-individual-account':
          return {
            userInfo: californian({ email: 'base.account@example.com' }),
            serviceTermsSignedAt: signedAt(),
            additionalUserInfo: additionalUserInfo(),
            walletAddress: CHECKSUMMED,
            verificationDocuments: personDocs(),
          };
        case 'create-entity-account':
          return { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() };
        case 'update-entity-account':
          return { accountId: on.entityAccountId, entityInfo: companyInfo({ businessTradeName: 'Acme Updated' }), entityDocuments: [doc('good_standing_cert')] };
        case 'create-associated-person':
          return {
            accountId: on.entityAccountId,
            userInfo: californian({ email: 'base.person@example.com' }),
            beneficiaryDetails: { beneficiaryType: ['ubo', 'representative'], ownershipPercentage: 30, title: 'CTO' },
            verificationDocuments: personDocs(),
          };
        case 'update-associated-person':
          return {
            beneficiaryId: on.beneficiaryId,
            userInfo: californian({ email: 'base.update@example.com' }),
            beneficiaryDetails: { title: 'COO' },
            verificationDocuments: personDocs(),
          };
      }
    }

    function send(endpoint: Endpoint, body: unknown) {
      const { method, path } = PATHS[endpoint];
      // Bodies differ anyway; a second passes so no two signed requests can ever be identical.
      server.clock.advance(1000);
      return method === 'post' ? acme.client.post(path, body) : acme.client.patch(path, body);
    }

    async function accountCount(): Promise<number> {
      let count = 0;
      let cursor = '';
      for (;;) {
        const page = await acme.client.get(`/v1/query/list-accounts?limit=100${cursor}`);
        assert.equal(page.status, 200, page.text);
        count += page.body.data.length;
        if (!page.body.hasMore) return count;
        cursor = `&startingAfter=${page.body.data.at(-1).accountId}`;
      }
    }

    /** What a refused request of this endpoint must leave exactly as it was. */
    async function snapshot(endpoint: Endpoint): Promise<unknown> {
      switch (endpoint) {
        case 'create-user':
        case 'create-individual-account':
        case 'create-entity-account':
          return { accounts: await accountCount() };
        case 'create-associated-person':
          return { persons: (await acme.client.get(`/v1/query/get-entity-details?accountId=${target.entityAccountId}`)).body.associatedPersons.length };
        case 'update-entity-account':
          return (await acme.client.get(`/v1/query/get-entity-details?accountId=${target.entityAccountId}`)).body;
        case 'update-associated-person':
          return (await acme.client.get(`/v1/query/get-associated-person-details?beneficiaryId=${target.beneficiaryId}`)).body;
      }
    }

    for (const endpoint of ENDPOINTS) {
      it(`${endpoint}: the base payload is valid`, async () => {
        const res = await send(endpoint, base(endpoint, probe));
        assert.ok(res.status === 200 || res.status === 201, `${res.status} ${res.text}`);
      });
    }

    for (const rule of RULES) {
      for (const endpoint of rule.endpoints) {
        const pointer = typeof rule.pointer === 'function' ? rule.pointer(endpoint) : rule.pointer;
        it(`${endpoint}: ${rule.rule} → 400 ${rule.code} at ${pointer}`, async () => {
          const body = base(endpoint, target);
          rule.mutate(body, { now: server.clock.now(), ...target }, endpoint);
          const before = await snapshot(endpoint);
          const res = await send(endpoint, body);
          assert.equal(res.status, 400, res.text);
          assert.equal(res.body.code, rule.problem ?? 'validation_failed', res.text);
          assert.deepEqual(
            res.body.errors.map((e: FieldError) => ({ pointer: e.pointer, code: e.code, in: e.in })),
            [{ pointer, code: rule.code, in: 'body' }],
          );
          assert.deepEqual(await snapshot(endpoint), before, 'nothing was written');
        });
      }
    }

    it('accepts the values right at each boundary', async () => {
      // Frozen at noon UTC so that "a birthday today" cannot straddle midnight.
      const noon = new Date(server.clock.now());
      noon.setUTCHours(12, 0, 0, 0);
      server.clock.freeze(noon);
      try {
        const born = (years: number, days = 0) => {
          const d = new Date(noon);
          d.setUTCFullYear(d.getUTCFullYear() - years);
          d.setUTCDate(d.getUTCDate() + days);
          return d.toISOString().slice(0, 10);
        };
        const signed = new Date(noon.getTime() - 3600_000).toISOString();
        const account = (userInfo: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
          send('create-individual-account', { userInfo: berliner(userInfo), serviceTermsSignedAt: signed, ...extra });
        const outcome = async (res: Promise<{ status: number; body: Problem }>) => {
          const r = await res;
          return r.status === 201 ? 'ok' : `${r.body.code}:${r.body.errors?.map((e: FieldError) => e.code).join(',')}`;
        };
        assert.equal(await outcome(account({ email: 'eighteen@example.de', birthDate: born(18) })), 'ok', '18 today');
        assert.equal(await outcome(account({ email: 'seventeen@example.de', birthDate: born(18, 1) })), 'validation_failed:age_out_of_range', '18 tomorrow');
        assert.equal(await outcome(account({ email: 'sixty@example.de', birthDate: born(61, 1) })), 'ok', '60 needs no additionalUserInfo');
        assert.equal(await outcome(account({ email: 'sixty-one@example.de', birthDate: born(61) })), 'additional_user_info_required:additional_user_info_required', '61 needs it');
        assert.equal(await outcome(account({ email: 'old@example.de', birthDate: born(121, 1) }, { additionalUserInfo: additionalUserInfo() })), 'ok', '120');
        assert.equal(await outcome(account({ email: 'older@example.de', birthDate: born(121) }, { additionalUserInfo: additionalUserInfo() })), 'validation_failed:age_out_of_range', '121');
        const caracas = { streetLine1: 'Avenida Urdaneta 1', city: 'Caracas', postalCode: '1010', country: 'VEN' };
        assert.equal(await outcome(account({ email: 'caracas@example.de', residentialAddress: caracas })), 'additional_user_info_required:additional_user_info_required', 'residence in a high-risk country');
        const soon = (minutes: number) => ({ serviceTermsSignedAt: new Date(noon.getTime() + minutes * 60_000).toISOString() });
        assert.equal(await outcome(account({ email: 'skew@example.de' }, soon(4))), 'ok', '4 minutes of clock skew');
        assert.equal(await outcome(account({ email: 'future@example.de' }, soon(6))), 'validation_failed:invalid_date', '6 minutes ahead');
      } finally {
        server.clock.reset();
      }
    });

    describe('document size', () => {
      it('refuses a document of 10 MiB + 1 byte decoded (too_large) and accepts exactly 10 MiB', async () => {
        const tooLarge = base('create-individual-account', probe);
        tooLarge.verificationDocuments[1].document = pdfOfSize(10 * MIB + 1);
        const before = await accountCount();
        const refused = await send('create-individual-account', tooLarge);
        assertFieldErrors(refused, [['/verificationDocuments/1/document', 'too_large']]);
        assert.equal(await accountCount(), before, 'nothing was written');

        const exact = base('create-individual-account', probe);
        exact.verificationDocuments[1].document = pdfOfSize(10 * MIB);
        const accepted = await send('create-individual-account', exact);
        assert.equal(accepted.status, 201, accepted.text.slice(0, 500));
        assert.equal(accepted.body.verificationDocuments.length, 2);
        assert.ok(accepted.text.length < 10_000, 'the bytes are not echoed');
        assert.equal(await accountCount(), before + 1);
      });

      it('reports too_large at /verificationDocuments/0/document for the first document', async () => {
        const body = base('create-associated-person', target);
        body.verificationDocuments[0].document = pdfOfSize(10 * MIB + 1);
        const before = await snapshot('create-associated-person');
        const res = await send('create-associated-person', body);
        assertFieldErrors(res, [['/verificationDocuments/0/document', 'too_large']]);
        assert.deepEqual(await snapshot('create-associated-person'), before);
      });
    });

    describe('every bad field at once', () => {
      /** `endpoint`'s valid body on `on`, `mutate`d: one 400 naming every bad field (sorted), nothing written. */
      async function refusedTogether(endpoint: Endpoint, on: typeof target, mutate: (body: any) => void, expected: [string, string][]) {
        const body = base(endpoint, on);
        mutate(body);
        const before = await snapshot(endpoint);
        const res = await send(endpoint, body);
        assertFieldErrors(res, expected, { sorted: true });
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(await snapshot(endpoint), before, 'nothing written');
      }

      it('reports three bad fields of one request in one response', async () => {
        await refusedTogether(
          'create-individual-account',
          probe,
          (body) => {
            body.userInfo.email = 'not-an-email';
            body.userInfo.phone = '4155552671';
            body.userInfo.residentialAddress.postalCode = '9410';
          },
          [
            ['/userInfo/email', 'invalid_email'],
            ['/userInfo/phone', 'invalid_phone'],
            ['/userInfo/residentialAddress/postalCode', 'invalid_postal_code'],
          ],
        );
        await refusedTogether(
          'update-entity-account',
          target,
          (entity) => {
            entity.entityInfo.website = 'javascript:alert(1)';
            entity.entityInfo.financialInfo.estimatedAnnualRevenueUsd = '10_5';
            entity.entityInfo.highRiskInfo.conductsMoneyServices = true;
          },
          [
            ['/entityInfo/financialInfo/estimatedAnnualRevenueUsd', 'invalid_range'],
            ['/entityInfo/highRiskInfo/conductsMoneyServicesDescription', 'required'],
            ['/entityInfo/website', 'invalid_url'],
          ],
        );
      });

      it('reports schema-level and domain-level errors of one request together', async () => {
        await refusedTogether(
          'create-individual-account',
          probe,
          (body) => {
            body.userInfo.nationality = 'XXX'; // schema (enum)
            body.userInfo.email = 'not-an-email'; // domain
            body.userInfo.residentialAddress.postalCode = '9410'; // domain
          },
          [
            ['/userInfo/email', 'invalid_email'],
            ['/userInfo/nationality', 'invalid_value'],
            ['/userInfo/residentialAddress/postalCode', 'invalid_postal_code'],
          ],
        );
      });
    });
  });
}
