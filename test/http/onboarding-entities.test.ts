import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { associatedPersons } from '../../src/db/schema/index.js';
import { backends } from '../harness/backends.js';
import { eventsFor, eventsOfType } from '../harness/db.js';
import { assertFieldErrors } from '../harness/field-errors.js';
import { berliner, californian, companyInfo, doc, entityDocs, personDocs, signedAt } from '../harness/fixtures.js';
import type { SeededIntegrator } from '../harness/server.js';
import { useTenants } from '../harness/tenants.js';
import type { AccountView, AssociatedPersonSummary, AssociatedPersonView, ChangeData, DocumentView, EntityAccountView, EventData, FieldError, StatusChange } from '../harness/types.js';

const CREATE_ENTITY = '/v1/submit/create-entity-account';
const UPDATE_ENTITY = '/v1/submit/update-entity-account';
const CREATE_PERSON = '/v1/submit/create-associated-person';
const UPDATE_PERSON = '/v1/submit/update-associated-person';
const REMOVE_PERSON = '/v1/submit/remove-associated-person';
const entityDetails = (accountId: string) => `/v1/query/get-entity-details?accountId=${accountId}`;
const personDetails = (beneficiaryId: string) => `/v1/query/get-associated-person-details?beneficiaryId=${beneficiaryId}`;

/** The spec's table "Four entity document groups", written out here rather than imported from src. */
const DOCUMENT_GROUPS: Record<string, string[]> = {
  COMPANY_DETAILS_DOCUMENT: ['incorporation_cert', 'incorporation_articles', 'state_registry'],
  OWNERSHIP_STRUCTURE_DOCUMENT: ['shareholder_registry', 'information_statement', 'trust_agreement', 'partnership_agreement'],
  SOURCE_OF_FUNDS_DOCUMENT: ['source_of_funds'],
  PROOF_OF_ADDRESS_DOCUMENT: ['proof_of_address'],
};
const ALL_GROUPS = Object.keys(DOCUMENT_GROUPS);
const OPTIONAL_ENTITY_DOCUMENTS = ['directors_registry', 'good_standing_cert', 'incumbency_cert', 'power_of_attorney', 'other'];
const QUESTIONNAIRES = ['PHYSICAL_ADDRESS_QUESTIONNAIRE', 'ACTIVITY_INFO_QUESTIONNAIRE', 'FINANCIAL_INFO_QUESTIONNAIRE'];
/** docs/onboarding.md, "What is missing". */
const REQUIRED_COMPANY_DATA = [
  'businessLegalName',
  'businessType',
  'companyNumber',
  'email',
  'registeredAddress',
  'physicalAddress',
  'activityInfo.businessDescription',
  'activityInfo.businessIndustry',
  'financialInfo.sourceOfFunds',
  'financialInfo.estimatedAnnualRevenueUsd',
  'financialInfo.expectedMonthlyPaymentsUsd',
  'financialInfo.hasMaterialIntermediaryEntityOwner',
  'highRiskInfo.operatesInProhibitedCountries',
  'highRiskInfo.highRiskActivities',
  'highRiskInfo.conductsMoneyServices',
];
const DOCUMENT_VIEW_KEYS = ['description', 'documentId', 'documentNumber', 'documentType', 'errors', 'issuingCountry', 'warnings'];

const sorted = (list: readonly string[] | undefined) => [...(list ?? [])].sort();
const strip = (body: object) => ({ ...body, requestId: undefined });

for (const backend of backends()) {
  describe(`entity accounts and associated persons [${backend}]`, () => {
    const { server, tenants: [acme, globex, happyCo] } = useTenants(backend, ['Acme', 'Globex', 'Happy Path']);
    /** An integrator used only by the happy path, so its events can be counted exactly. */
    const happy: { entity?: EntityAccountView; persons: AssociatedPersonView[] } = { persons: [] };

    async function createEntity(who: SeededIntegrator, body: Record<string, unknown> = {}): Promise<EntityAccountView> {
      const res = await who.client.post(CREATE_ENTITY, { serviceTermsSignedAt: signedAt(), ...body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    }

    async function addPerson(who: SeededIntegrator, accountId: string, userInfo: Record<string, unknown>, beneficiaryDetails: Record<string, unknown>, documents?: unknown[]): Promise<AssociatedPersonView> {
      const res = await who.client.post(CREATE_PERSON, { accountId, userInfo, beneficiaryDetails, ...(documents ? { verificationDocuments: documents } : {}) });
      assert.equal(res.status, 201, res.text);
      return res.body;
    }

    /** Approves a person the way an operator would (sandbox), so entities can move on. */
    async function approve(beneficiaryId: string) {
      server.clock.advance(1000);
      const res = await acme.client.post('/v1/sandbox/simulate-verification', { beneficiaryId, outcome: 'approve' });
      assert.equal(res.body.verificationStatus, 'active', res.text);
    }

    /** Every row for the entity, removed persons included: what "nothing written" means. */
    async function personRows(entityId: string) {
      return server.database.db.select().from(associatedPersons).where(eq(associatedPersons.entityId, entityId));
    }

    it('happy path: a complete company with two UBOs and a CEO goes to under_review once they are active', async () => {
      const created = await happyCo.client.post(CREATE_ENTITY, { entityInfo: companyInfo(), entityDocuments: entityDocs(), serviceTermsSignedAt: signedAt() });
      assert.equal(created.status, 201, created.text);
      const entity = created.body;
      happy.entity = entity;
      assert.equal(entity.missingDocuments, undefined, 'omitted when no document is missing');
      assert.equal(entity.missingCompanyData, undefined, 'omitted when no company data is missing');
      assert.equal(entity.verificationStatus, 'awaiting_associated_person_information');
      assert.equal(entity.entityInfo.financialInfo.preferredPrimaryCurrency, 'usd');
      assert.equal(entity.entityInfo.businessLegalName, 'Acme Robotics Inc.');
      assert.equal(entity.entityDocuments.length, 4);
      for (const d of entity.entityDocuments) assert.deepEqual(Object.keys(d).sort(), DOCUMENT_VIEW_KEYS);

      const usDocs = personDocs('USA');
      const usUbo = await addPerson(
        happyCo,
        entity.accountId,
        californian({ email: 'maria.ubo@example.com', socialSecurityNumber: '123-45-6789' }),
        { beneficiaryType: ['ubo'], ownershipPercentage: 40 },
        usDocs,
      );
      assert.equal(usUbo.verificationStatus, 'under_review');
      assert.equal(usUbo.missingDocuments, undefined);
      assert.equal(usUbo.userInfo.socialSecurityNumber, '***-**-6789');
      const afterFirstUbo = await happyCo.client.get(entityDetails(entity.accountId));
      assert.equal(afterFirstUbo.body.verificationStatus, 'awaiting_associated_person_information', 'no representative yet');

      const germanUbo = await addPerson(happyCo, entity.accountId, berliner({ email: 'jonas.ubo@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 35 }, personDocs('DEU'));
      assert.equal(germanUbo.verificationStatus, 'under_review');
      assert.equal(germanUbo.userInfo.socialSecurityNumber, undefined, 'no SSN was given');

      const ceo = await addPerson(
        happyCo,
        entity.accountId,
        berliner({ firstName: 'Anna', lastName: 'Schmidt', email: 'anna.ceo@example.de' }),
        { beneficiaryType: ['representative'], title: 'CEO' },
        personDocs('DEU'),
      );
      assert.equal(ceo.beneficiaryDetails.title, 'CEO');
      happy.persons = [usUbo, germanUbo, ceo];

      const details = await happyCo.client.get(entityDetails(entity.accountId));
      assert.equal(details.status, 200, details.text);
      assert.equal(details.body.verificationStatus, 'awaiting_associated_person_information', 'until every UBO and representative is active');
      assert.equal(details.body.entityId, entity.entityId);
      assert.deepEqual(details.body.entityInfo, entity.entityInfo);
      const listed = details.body.associatedPersons;
      assert.equal(listed.length, 3);
      for (const p of listed) assert.deepEqual(Object.keys(p).sort(), ['beneficiaryDetails', 'beneficiaryId', 'firstName', 'lastName', 'verificationStatus']);
      const byId = new Map(listed.map((p: AssociatedPersonSummary) => [p.beneficiaryId, p]));
      const expected: [{ beneficiaryId: string }, string, string, Record<string, unknown>][] = [
        [usUbo, 'Maria', 'Garcia', { beneficiaryType: ['ubo'], ownershipPercentage: 40 }],
        [germanUbo, 'Jonas', 'Becker', { beneficiaryType: ['ubo'], ownershipPercentage: 35 }],
        [ceo, 'Anna', 'Schmidt', { beneficiaryType: ['representative'], title: 'CEO' }],
      ];
      for (const [person, firstName, lastName, beneficiaryDetails] of expected) {
        assert.deepEqual(byId.get(person.beneficiaryId), { beneficiaryId: person.beneficiaryId, verificationStatus: 'under_review', firstName, lastName, beneficiaryDetails }, `${firstName} ${lastName}`);
      }

      // The full record of one person: SSN masked, documents as returned (never the bytes).
      const full = await happyCo.client.get(personDetails(usUbo.beneficiaryId));
      assert.equal(full.status, 200, full.text);
      assert.deepEqual(full.body, usUbo, 'the read returns what create returned');
      assert.equal(full.body.userInfo.socialSecurityNumber, '***-**-6789');
      assert.deepEqual({ ...full.body.userInfo, socialSecurityNumber: undefined }, { ...californian({ email: 'maria.ubo@example.com' }), socialSecurityNumber: undefined });
      assert.equal(full.body.verificationDocuments.length, 2);
      for (const d of full.body.verificationDocuments) {
        assert.deepEqual(Object.keys(d).sort(), DOCUMENT_VIEW_KEYS);
        assert.match(d.documentId, /^[0-9a-f-]{36}$/);
        assert.equal(d.warnings, null);
        assert.equal(d.errors, null);
      }
      const passport = full.body.verificationDocuments.find((d: DocumentView) => d.documentType === 'passport')!;
      assert.equal(passport.documentNumber, (usDocs[0] as { documentNumber?: string }).documentNumber, 'document number as sent');
      assert.equal(passport.issuingCountry, 'USA');
      assert.equal(passport.description, null);
      const proof = full.body.verificationDocuments.find((d: DocumentView) => d.documentType === 'proof_of_address')!;
      assert.equal(proof.documentNumber, null);
      for (const d of usDocs) assert.ok(!full.text.includes(d.document.slice(40, 120)), 'no document bytes in the response');
      assert.ok(!full.text.includes('123-45-6789') && !full.text.includes('123456789'), 'no SSN in clear');

      // Once every person is approved (here by the sandbox), the entity itself goes to review.
      for (const person of happy.persons) {
        server.clock.advance(1000);
        const approved = await happyCo.client.post('/v1/sandbox/simulate-verification', { beneficiaryId: person.beneficiaryId, outcome: 'approve' });
        assert.equal(approved.body.verificationStatus, 'active', approved.text);
      }
      assert.equal((await happyCo.client.get(entityDetails(entity.accountId))).body.verificationStatus, 'under_review');
    });

    it('writes entity.created, account.created and associated_person.created ×3, each with the object the API returned', async () => {
      assert.ok(happy.entity, 'the happy path ran');
      const id = happyCo.integratorId;
      const [entityCreated, accountCreated, personsCreated] = await Promise.all([
        eventsOfType(server.database, id, 'entity.created'),
        eventsOfType(server.database, id, 'account.created'),
        eventsOfType(server.database, id, 'associated_person.created'),
      ]);
      assert.equal(entityCreated.length, 1);
      assert.equal(entityCreated[0]!.objectId, happy.entity.entityId);
      assert.deepEqual((entityCreated[0]!.data as EventData<EntityAccountView>).object, happy.entity);

      assert.equal(accountCreated.length, 1);
      assert.equal(accountCreated[0]!.objectId, happy.entity.accountId);
      const account = (accountCreated[0]!.data as EventData<AccountView>).object;
      assert.equal(account.accountId, happy.entity.accountId);
      assert.equal(account.type, 'entity');
      assert.equal(account.entityId, happy.entity.entityId);
      assert.equal(account.verificationStatus, happy.entity.verificationStatus, 'the status at creation');
      const accountNow = await happyCo.client.get(`/v1/query/get-account-details?accountId=${happy.entity.accountId}`);
      assert.equal(accountNow.status, 200, accountNow.text);
      assert.deepEqual({ ...account, verificationStatus: 'under_review' }, accountNow.body, 'the account as get-account-details returns it, then in its status of the time');
      assert.equal(accountCreated[0]!.createdAt.getTime(), entityCreated[0]!.createdAt.getTime(), 'written by the same change');

      assert.equal(personsCreated.length, 3);
      const byObject = new Map(personsCreated.map((e) => [e.objectId, (e.data as EventData<AssociatedPersonView>).object]));
      for (const person of happy.persons) assert.deepEqual(byObject.get(person.beneficiaryId), person);
      const ssnEvent = byObject.get(happy.persons[0]!.beneficiaryId);
      assert.equal(ssnEvent!.userInfo.socialSecurityNumber, '***-**-6789', 'events carry the SSN masked');

      // The last person's approval made the entity ready: one status change, with the previous status and why.
      const changes = await eventsOfType(server.database, id, 'entity.verification_status.changed');
      assert.deepEqual(
        changes.map((e) => e.data),
        [
          {
            object: { entityId: happy.entity.entityId, verificationStatus: 'under_review', action: 'persons_ready', reason: 'every associated person is active' },
            previousAttributes: { verificationStatus: 'awaiting_associated_person_information' },
          },
        ],
      );
    });

    it('create-entity-account with only serviceTermsSignedAt lists every missing group, questionnaire and field', async () => {
      const entity = await createEntity(acme);
      assert.equal(entity.verificationStatus, 'awaiting_information');
      assert.deepEqual(sorted(entity.missingDocuments), sorted([...ALL_GROUPS, ...QUESTIONNAIRES]));
      assert.equal(entity.missingDocuments!.length, 7, 'each code once');
      assert.deepEqual(sorted(entity.missingCompanyData), sorted(REQUIRED_COMPANY_DATA));
      assert.deepEqual(entity.entityDocuments, []);
      assert.equal(entity.entityInfo.financialInfo!.preferredPrimaryCurrency, 'usd', 'set by the service even when nothing else is given');
    });

    describe('missingDocuments groups', () => {
      for (const [group, types] of Object.entries(DOCUMENT_GROUPS)) {
        for (const type of types) {
          it(`${type} alone satisfies exactly ${group}`, async () => {
            const entity = await createEntity(acme, { entityInfo: companyInfo() });
            assert.deepEqual(sorted(entity.missingDocuments), sorted(ALL_GROUPS), 'complete data: only the four groups are missing');
            const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [doc(type)] });
            assert.equal(res.status, 200, res.text);
            assert.deepEqual(sorted(res.body.missingDocuments), sorted(ALL_GROUPS.filter((g) => g !== group)));
            assert.deepEqual(res.body.entityDocuments.map((d: DocumentView) => d.documentType), [type]);
            assert.equal(res.body.verificationStatus, 'awaiting_information');
          });
        }
      }

      for (const type of OPTIONAL_ENTITY_DOCUMENTS) {
        it(`optional ${type} clears no group`, async () => {
          const entity = await createEntity(acme, { entityInfo: companyInfo() });
          const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [doc(type)] });
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(sorted(res.body.missingDocuments), sorted(ALL_GROUPS));
          assert.equal(res.body.entityDocuments.length, 1, 'stored all the same');
        });
      }
    });

    describe('update-entity-account merges deeply', () => {
      it('patching financialInfo.sourceOfFunds keeps the other financialInfo fields', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { financialInfo: { sourceOfFunds: 'investment' } } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.entityInfo, { ...entity.entityInfo, financialInfo: { ...entity.entityInfo.financialInfo, sourceOfFunds: 'investment' } });
        assert.equal(res.body.entityInfo.financialInfo.estimatedAnnualRevenueUsd, '1000000_10000000');
        assert.equal(res.body.entityInfo.financialInfo.preferredPrimaryCurrency, 'usd');
        assert.deepEqual(res.body.entityDocuments, entity.entityDocuments);
        assert.equal(res.body.verificationStatus, entity.verificationStatus);
        const details = await acme.client.get(entityDetails(entity.accountId));
        assert.deepEqual(details.body.entityInfo, res.body.entityInfo, 'stored as returned');
      });

      it('patching businessTradeName keeps everything else; entity.updated carries previousAttributes; a no-op writes no event', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { businessTradeName: 'Acme Bots' } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { ...entity, entityInfo: { ...entity.entityInfo, businessTradeName: 'Acme Bots' } });

        const updated = (await eventsFor(server.database, entity.entityId)).filter((e) => e.type === 'entity.updated');
        assert.equal(updated.length, 1);
        const data = updated[0]!.data as ChangeData<EntityAccountView, 'entityInfo'>;
        assert.deepEqual(data.previousAttributes, { entityInfo: { businessTradeName: 'Acme' } });
        assert.deepEqual(data.object, res.body);

        // The same values again (and an update with nothing in it) change nothing and write no event.
        server.clock.advance(1000);
        const again = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { businessTradeName: 'Acme Bots' } });
        assert.equal(again.status, 200, again.text);
        assert.deepEqual(again.body, res.body);
        const empty = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId });
        assert.equal(empty.status, 200, empty.text);
        const sameFinancials = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { financialInfo: { sourceOfFunds: 'business_revenue' } } });
        assert.equal(sameFinancials.status, 200, sameFinancials.text);
        const events = await eventsFor(server.database, entity.entityId);
        assert.deepEqual(events.map((e) => e.type), ['entity.created', 'entity.updated']);
      });

      it('replaces an address as a whole: the old state and streetLine2 are not carried into the new address', async () => {
        const entity = await createEntity(acme, {
          entityInfo: companyInfo({ registeredAddress: { streetLine1: '500 Howard St', streetLine2: 'Floor 4', city: 'San Francisco', state: 'US-CA', postalCode: '94105', country: 'USA' } }),
        });
        const berlin = { streetLine1: 'Friedrichstraße 43', city: 'Berlin', postalCode: '10117', country: 'DEU' };
        const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { registeredAddress: berlin } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.entityInfo.registeredAddress, berlin);
        assert.deepEqual(res.body.entityInfo.physicalAddress, entity.entityInfo.physicalAddress, 'the other address is untouched');
        const events = (await eventsFor(server.database, entity.entityId)).filter((e) => e.type === 'entity.updated');
        assert.deepEqual((events[0]!.data as ChangeData<EntityAccountView, 'entityInfo'>).previousAttributes.entityInfo.registeredAddress, entity.entityInfo.registeredAddress);
      });

      it('drops a questionnaire code once its section is complete', async () => {
        const full = companyInfo();
        const { physicalAddress, activityInfo, financialInfo, ...rest } = full;
        const entity = await createEntity(acme, { entityInfo: rest, entityDocuments: entityDocs() });
        assert.deepEqual(sorted(entity.missingDocuments), sorted(QUESTIONNAIRES));
        assert.deepEqual(sorted(entity.missingCompanyData), sorted(REQUIRED_COMPANY_DATA.filter((f) => /^(physicalAddress|activityInfo|financialInfo)/.test(f))));

        const address = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { physicalAddress } });
        assert.deepEqual(sorted(address.body.missingDocuments), sorted(['ACTIVITY_INFO_QUESTIONNAIRE', 'FINANCIAL_INFO_QUESTIONNAIRE']));

        // Half a section is not enough.
        const halfActivity = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { activityInfo: { businessDescription: activityInfo.businessDescription } } });
        assert.deepEqual(sorted(halfActivity.body.missingDocuments), sorted(['ACTIVITY_INFO_QUESTIONNAIRE', 'FINANCIAL_INFO_QUESTIONNAIRE']));
        assert.ok(halfActivity.body.missingCompanyData.includes('activityInfo.businessIndustry'));
        assert.ok(!halfActivity.body.missingCompanyData.includes('activityInfo.businessDescription'));
        const activity = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { activityInfo: { businessIndustry: activityInfo.businessIndustry } } });
        assert.deepEqual(activity.body.missingDocuments, ['FINANCIAL_INFO_QUESTIONNAIRE']);
        assert.deepEqual(activity.body.entityInfo.activityInfo, activityInfo, 'merged from two updates');

        const financial = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityInfo: { financialInfo } });
        assert.equal(financial.status, 200, financial.text);
        assert.equal(financial.body.missingDocuments, undefined);
        assert.equal(financial.body.missingCompanyData, undefined);
        assert.equal(financial.body.verificationStatus, 'init', 'complete now; verification is requested explicitly');
        assert.deepEqual(financial.body.entityInfo, { ...full, financialInfo: { ...financialInfo, preferredPrimaryCurrency: 'usd' } });
        const changes = (await eventsFor(server.database, entity.entityId)).filter((e) => e.type === 'entity.verification_status.changed');
        assert.deepEqual(
          changes.map((e) => (e.data as ChangeData<StatusChange, 'verificationStatus'>).previousAttributes.verificationStatus),
          ['awaiting_information'],
          'one status change, when the last section was completed',
        );
      });
    });

    describe('documents: every submission is recorded under the type it was submitted as (docs/onboarding.md#documents)', () => {
      const types = (docs: DocumentView[]) => docs.map((d) => d.documentType).sort();

      it('one file as two types in one request (a certificate that is also the trust agreement): both recorded, both groups satisfied', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo() });
        const certificate = doc('incorporation_cert');
        const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [certificate, { ...certificate, documentType: 'trust_agreement' }] });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(types(res.body.entityDocuments), ['incorporation_cert', 'trust_agreement']);
        assert.equal(new Set(res.body.entityDocuments.map((d: DocumentView) => d.documentId)).size, 2, 'two documents');
        assert.deepEqual(sorted(res.body.missingDocuments), ['PROOF_OF_ADDRESS_DOCUMENT', 'SOURCE_OF_FUNDS_DOCUMENT']);
        const details = await acme.client.get(entityDetails(entity.accountId));
        assert.deepEqual(details.body.entityDocuments, res.body.entityDocuments, 'stored as answered');

        // At creation too.
        const created = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: [certificate, { ...certificate, documentType: 'trust_agreement' }] });
        assert.deepEqual(types(created.entityDocuments), ['incorporation_cert', 'trust_agreement']);
        assert.deepEqual(sorted(created.missingDocuments), ['PROOF_OF_ADDRESS_DOCUMENT', 'SOURCE_OF_FUNDS_DOCUMENT']);
      });

      it('bytes sent before, in a later request under another type: recorded, with entity.updated', async () => {
        const certificate = doc('incorporation_cert');
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: [certificate] });
        assert.ok(entity.missingDocuments?.includes('OWNERSHIP_STRUCTURE_DOCUMENT'));
        const res = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [{ ...certificate, documentType: 'trust_agreement' }] });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(types(res.body.entityDocuments), ['incorporation_cert', 'trust_agreement']);
        assert.deepEqual(sorted(res.body.missingDocuments), ['PROOF_OF_ADDRESS_DOCUMENT', 'SOURCE_OF_FUNDS_DOCUMENT']);
        const mine = (await eventsFor(server.database, entity.entityId)).filter((e) => e.type === 'entity.updated');
        assert.equal(mine.length, 1);
        assert.deepEqual((mine[0]!.data as ChangeData<EntityAccountView, 'entityDocuments'>).previousAttributes.entityDocuments, entity.entityDocuments);
      });

      it('the same submission again (a retry) is the document it was; the same bytes with another description or number are another', async () => {
        const docs = entityDocs();
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: docs });
        const ids = entity.entityDocuments.map((d: DocumentView) => d.documentId);
        assert.equal(ids.length, 4);
        const again = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [docs[1], docs[2], docs[1]] });
        assert.equal(again.status, 200, again.text);
        assert.deepEqual(again.body.entityDocuments, entity.entityDocuments, 'nothing new');
        assert.deepEqual((await eventsFor(server.database, entity.entityId)).map((e) => e.type), ['entity.created'], 'nothing changed, so no entity.updated');

        const described = await acme.client.patch(UPDATE_ENTITY, { accountId: entity.accountId, entityDocuments: [{ ...docs[1]!, description: 'resent, certified copy' }, { ...docs[2]!, documentNumber: 'SOF-2' }] });
        assert.equal(described.status, 200, described.text);
        assert.equal(described.body.entityDocuments.length, 6);
        assert.deepEqual(described.body.entityDocuments.slice(0, 4), entity.entityDocuments, 'the earlier ones stand');
        assert.deepEqual(
          described.body.entityDocuments.slice(4).map((d: DocumentView) => [d.documentType, d.description, d.documentNumber]),
          [
            ['shareholder_registry', 'resent, certified copy', null],
            ['source_of_funds', null, 'SOF-2'],
          ],
        );
      });
    });

    describe('UBO and representative rules', () => {
      let entity: EntityAccountView;
      before(async () => {
        entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
      });

      const cases: [string, Record<string, unknown>, string, string][] = [
        ['a UBO without ownershipPercentage', { beneficiaryType: ['ubo'] }, '/beneficiaryDetails/ownershipPercentage', 'required'],
        ['a UBO with ownershipPercentage null', { beneficiaryType: ['ubo'], ownershipPercentage: null }, '/beneficiaryDetails/ownershipPercentage', 'required'],
        ['a UBO with exactly 25 % (must be more than 25)', { beneficiaryType: ['ubo'], ownershipPercentage: 25 }, '/beneficiaryDetails/ownershipPercentage', 'out_of_range'],
        ['a UBO with 100.5 %', { beneficiaryType: ['ubo'], ownershipPercentage: 100.5 }, '/beneficiaryDetails/ownershipPercentage', 'out_of_range'],
        ['a representative without title', { beneficiaryType: ['representative'] }, '/beneficiaryDetails/title', 'required'],
        ['a representative with a blank title', { beneficiaryType: ['representative'], title: '  ' }, '/beneficiaryDetails/title', 'required'],
        ['a beneficiaryType listed twice', { beneficiaryType: ['ubo', 'ubo'], ownershipPercentage: 30 }, '/beneficiaryDetails/beneficiaryType', 'duplicate_items'],
      ];
      for (const [name, details, pointer, code] of cases) {
        it(`refuses ${name} (400 at ${pointer})`, async () => {
          const res = await acme.client.post(CREATE_PERSON, { accountId: entity.accountId, userInfo: berliner({ email: 'rule@example.de' }), beneficiaryDetails: details });
          assertFieldErrors(res, [[pointer, code]]);
          assert.equal((await personRows(entity.entityId)).length, 0);
        });
      }

      it('accepts 25.01 %, and 100 % for a single UBO', async () => {
        const fresh = await createEntity(acme, { entityInfo: companyInfo() });
        const a = await addPerson(acme, fresh.accountId, berliner({ email: 'a@example.de' }), { beneficiaryType: ['ubo', 'representative'], ownershipPercentage: 100, title: 'Owner' });
        assert.equal(a.beneficiaryDetails.ownershipPercentage, 100);
        const other = await createEntity(acme, { entityInfo: companyInfo() });
        const b = await addPerson(acme, other.accountId, berliner({ email: 'b@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 25.01 });
        assert.equal(b.beneficiaryDetails.ownershipPercentage, 25.01);
      });

      it('refuses UBO shares above 100 % in total across the persons of one entity, writing nothing', async () => {
        const fresh = await createEntity(acme, { entityInfo: companyInfo() });
        await addPerson(acme, fresh.accountId, berliner({ email: 'sixty@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 60 });
        await addPerson(acme, fresh.accountId, berliner({ email: 'thirty@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 30 });
        const rowsBefore = (await personRows(fresh.entityId)).length;
        const eventsBefore = (await eventsOfType(server.database, acme.integratorId, 'associated_person.created')).length;
        const res = await acme.client.post(CREATE_PERSON, {
          accountId: fresh.accountId,
          userInfo: berliner({ email: 'fifty@example.de' }),
          beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 26 },
        });
        assertFieldErrors(res, [['/beneficiaryDetails/ownershipPercentage', 'ownership_exceeds_100']]);
        assert.equal((await personRows(fresh.entityId)).length, rowsBefore, 'no person written');
        assert.equal((await eventsOfType(server.database, acme.integratorId, 'associated_person.created')).length, eventsBefore, 'no event written');
        // A representative holds no shares; the UBOs of another entity do not count.
        await addPerson(acme, fresh.accountId, berliner({ email: 'rep@example.de' }), { beneficiaryType: ['representative'], title: 'CFO' });
        const other = await createEntity(acme, { entityInfo: companyInfo() });
        await addPerson(acme, other.accountId, berliner({ email: 'other@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 90 });
        // Exactly 100 in total is accepted, also when it only adds up to 100 in decimal (33.34 + 33.33 + 33.33).
        const thirds = await createEntity(acme, { entityInfo: companyInfo() });
        for (const [i, share] of [33.34, 33.33, 33.33].entries()) {
          await addPerson(acme, thirds.accountId, berliner({ email: `third${i}@example.de` }), { beneficiaryType: ['ubo'], ownershipPercentage: share });
        }
      });

      it('refuses an update of a UBO share that takes the total above 100 %', async () => {
        const fresh = await createEntity(acme, { entityInfo: companyInfo() });
        await addPerson(acme, fresh.accountId, berliner({ email: 'big@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 60 });
        const small = await addPerson(acme, fresh.accountId, berliner({ email: 'small@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 30 });
        const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: small.beneficiaryId, beneficiaryDetails: { ownershipPercentage: 45 } });
        assertFieldErrors(res, [['/beneficiaryDetails/ownershipPercentage', 'ownership_exceeds_100']]);
        const stored = await acme.client.get(personDetails(small.beneficiaryId));
        assert.equal(stored.body.beneficiaryDetails.ownershipPercentage, 30, 'unchanged');
        // Up to exactly 100 is accepted.
        const ok = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: small.beneficiaryId, beneficiaryDetails: { ownershipPercentage: 40 } });
        assert.equal(ok.status, 200, ok.text);
        assert.deepEqual(ok.body.beneficiaryDetails, { beneficiaryType: ['ubo'], ownershipPercentage: 40 });
      });

      it('lets only one of two concurrent UBOs of 60 % in', async () => {
        const fresh = await createEntity(acme, { entityInfo: companyInfo() });
        const results = await Promise.all(
          ['first', 'second'].map((tag) =>
            acme.client.post(CREATE_PERSON, { accountId: fresh.accountId, userInfo: berliner({ email: `${tag}@example.de` }), beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 60 } }),
          ),
        );
        assert.deepEqual(results.map((r) => r.status).sort(), [201, 400], results.map((r) => r.text).join('\n'));
        assert.equal((await personRows(fresh.entityId)).length, 1);
      });

      it(
        'refuses UBO shares whose exact total is above 100 % (50.004 + 50.004)',
        async () => {
          const fresh = await createEntity(acme, { entityInfo: companyInfo() });
          await addPerson(acme, fresh.accountId, berliner({ email: 'half1@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 50.004 });
          const res = await acme.client.post(CREATE_PERSON, {
            accountId: fresh.accountId,
            userInfo: berliner({ email: 'half2@example.de' }),
            beneficiaryDetails: { beneficiaryType: ['ubo'], ownershipPercentage: 50.004 },
          });
          assertFieldErrors(res, [['/beneficiaryDetails/ownershipPercentage', 'ownership_exceeds_100']]);
        },
      );
    });

    describe('update-associated-person', () => {
      it('a partial update of userInfo.phone keeps the rest, including the stored SSN (still masked), and records previousAttributes', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const person = await addPerson(acme, entity.accountId, californian({ email: 'phone@example.com' }), { beneficiaryType: ['ubo'], ownershipPercentage: 51 }, personDocs());
        assert.equal(person.userInfo.socialSecurityNumber, '***-**-6789');

        const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, userInfo: { phone: '+14155550123' } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { ...person, userInfo: { ...person.userInfo, phone: '+14155550123' } });
        assert.equal(res.body.userInfo.socialSecurityNumber, '***-**-6789', 'the stored SSN stays without being resubmitted');
        const read = await acme.client.get(personDetails(person.beneficiaryId));
        assert.deepEqual(read.body, res.body);

        const events = await eventsFor(server.database, person.beneficiaryId);
        assert.deepEqual(events.map((e) => e.type), ['associated_person.created', 'associated_person.updated']);
        const data = events[1]!.data as ChangeData<AssociatedPersonView, 'userInfo'>;
        assert.deepEqual(data.previousAttributes, { userInfo: person.userInfo });
        assert.deepEqual(data.object, res.body);
      });

      it('adding the missing documents completes a person (init), and request-verification sends it to review', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const person = await addPerson(acme, entity.accountId, berliner({ email: 'docs-later@example.de' }), { beneficiaryType: ['representative'], title: 'Director' });
        assert.equal(person.verificationStatus, 'awaiting_information');
        assert.deepEqual(person.missingDocuments, ['IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS_DOCUMENT']);
        const entityBefore = await acme.client.get(entityDetails(entity.accountId));
        assert.equal(entityBefore.body.verificationStatus, 'awaiting_associated_person_information', 'its only person is incomplete');

        const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, verificationDocuments: personDocs('DEU') });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.verificationStatus, 'init', 'complete, but verification not yet requested');
        assert.equal(res.body.missingDocuments, undefined);
        assert.equal(res.body.verificationDocuments.length, 2);
        const requested = await acme.client.post('/v1/submit/request-verification', { beneficiaryId: person.beneficiaryId });
        assert.equal(requested.body.verificationStatus, 'under_review', requested.text);

        const changed = (await eventsFor(server.database, person.beneficiaryId)).filter((e) => e.type === 'associated_person.verification_status.changed');
        assert.deepEqual(
          changed.map((e) => e.data as ChangeData<StatusChange, 'verificationStatus'>).map((data) => [data.previousAttributes.verificationStatus, data.object.verificationStatus]),
          [
            ['awaiting_information', 'init'],
            ['init', 'under_review'],
          ],
        );
        const updated = (await eventsFor(server.database, person.beneficiaryId)).filter((e) => e.type === 'associated_person.updated');
        assert.equal(updated.length, 1);
        assert.deepEqual((updated[0]!.data as ChangeData<AssociatedPersonView, 'verificationDocuments'>).previousAttributes, { verificationDocuments: [] });
        const entityAfter = await acme.client.get(entityDetails(entity.accountId));
        assert.equal(entityAfter.body.verificationStatus, 'awaiting_associated_person_information', 'the entity waits until its persons are active');
      });

      it('one file as two types (an ID card scanned both sides in one image) counts as both; the same bytes later under another type are recorded too', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const card = doc('national_id_front', 'DEU', { documentNumber: `L${Date.now()}` });
        const person = await addPerson(acme, entity.accountId, berliner({ email: 'one-scan@example.de' }), { beneficiaryType: ['representative'], title: 'Director' }, [
          card,
          { ...card, documentType: 'national_id_back' },
          doc('proof_of_address', 'DEU'),
        ]);
        assert.deepEqual(person.verificationDocuments?.map((d) => d.documentType).sort(), ['national_id_back', 'national_id_front', 'proof_of_address']);
        assert.equal(person.missingDocuments, undefined, 'IDENTITY_DOCUMENT: front and back');

        const later = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, verificationDocuments: [{ ...card, documentType: 'other' }, card] });
        assert.equal(later.status, 200, later.text);
        assert.deepEqual(later.body.verificationDocuments.map((d: DocumentView) => d.documentType).sort(), ['national_id_back', 'national_id_front', 'other', 'proof_of_address'], 'the retried front is not stored twice');
        const details = await acme.client.get(personDetails(person.beneficiaryId));
        assert.deepEqual(details.body.verificationDocuments, later.body.verificationDocuments);
      });

      it('an update that changes nothing writes no associated_person.updated event', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo() });
        const person = await addPerson(acme, entity.accountId, berliner({ email: 'same@example.de' }), { beneficiaryType: ['representative'], title: 'CEO' });
        const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, userInfo: { email: 'same@example.de' }, beneficiaryDetails: { title: 'CEO' } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, person);
        assert.deepEqual((await eventsFor(server.database, person.beneficiaryId)).map((e) => e.type), ['associated_person.created']);
      });

      it('dropping the representative type of the only representative moves the entity back', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const person = await addPerson(
          acme,
          entity.accountId,
          berliner({ email: 'owner-ceo@example.de' }),
          { beneficiaryType: ['ubo', 'representative'], ownershipPercentage: 60, title: 'CEO' },
          personDocs('DEU'),
        );
        await approve(person.beneficiaryId);
        assert.equal((await acme.client.get(entityDetails(entity.accountId))).body.verificationStatus, 'under_review');
        const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, beneficiaryDetails: { beneficiaryType: ['ubo'] } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.beneficiaryDetails.beneficiaryType, ['ubo']);
        assert.equal(res.body.beneficiaryDetails.ownershipPercentage, 60, 'merged: the share stays');
        assert.equal((await acme.client.get(entityDetails(entity.accountId))).body.verificationStatus, 'awaiting_associated_person_information');
        // A UBO-only person now needs no title, but a representative again would.
        const back = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, beneficiaryDetails: { beneficiaryType: ['representative'], title: null } });
        assertFieldErrors(back, [['/beneficiaryDetails/title', 'required']]);
      });

      it(
        'a new SSN with the same last four digits is a change: it writes associated_person.updated',
        async () => {
          const entity = await createEntity(acme, { entityInfo: companyInfo() });
          const person = await addPerson(acme, entity.accountId, californian({ email: 'new-ssn@example.com', socialSecurityNumber: '123-45-6789' }), {
            beneficiaryType: ['representative'],
            title: 'CEO',
          });
          const [stored] = await server.database.db.select().from(associatedPersons).where(eq(associatedPersons.id, person.beneficiaryId));
          const res = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: person.beneficiaryId, userInfo: { socialSecurityNumber: '234-56-6789' } });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.userInfo.socialSecurityNumber, '***-**-6789');
          const [changed] = await server.database.db.select().from(associatedPersons).where(eq(associatedPersons.id, person.beneficiaryId));
          assert.notEqual(changed!.ssnFingerprint, stored!.ssnFingerprint, 'the SSN really changed');
          assert.deepEqual((await eventsFor(server.database, person.beneficiaryId)).map((e) => e.type), ['associated_person.created', 'associated_person.updated']);
        },
      );
    });

    describe('remove-associated-person', () => {
      it('removes a person: 200, then 404 on read, gone from the entity, and a second remove is 404', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const keep = await addPerson(acme, entity.accountId, berliner({ email: 'keep@example.de' }), { beneficiaryType: ['representative'], title: 'CEO' });
        const gone = await addPerson(acme, entity.accountId, berliner({ email: 'gone@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 50 });
        const res = await acme.client.post(REMOVE_PERSON, { beneficiaryId: gone.beneficiaryId });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { beneficiaryId: gone.beneficiaryId, removed: true });
        const read = await acme.client.get(personDetails(gone.beneficiaryId));
        assert.equal(read.status, 404);
        const missing = await acme.client.get(personDetails(crypto.randomUUID()));
        assert.deepEqual(strip(read.body), strip(missing.body), 'a removed person reads like one that never existed');
        const details = await acme.client.get(entityDetails(entity.accountId));
        assert.deepEqual(details.body.associatedPersons.map((p: AssociatedPersonSummary) => p.beneficiaryId), [keep.beneficiaryId]);
        assert.deepEqual((await eventsFor(server.database, gone.beneficiaryId)).map((e) => e.type), ['associated_person.created', 'associated_person.removed']);
        server.clock.advance(1000);
        const again = await acme.client.post(REMOVE_PERSON, { beneficiaryId: gone.beneficiaryId });
        assert.equal(again.status, 404);
        const update = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: gone.beneficiaryId, userInfo: { phone: '+4930901820' } });
        assert.equal(update.status, 404, 'a removed person cannot be updated');
        // Its shares no longer count: another UBO may now take them.
        await addPerson(acme, entity.accountId, berliner({ email: 'heir@example.de' }), { beneficiaryType: ['ubo'], ownershipPercentage: 100 });
      });

      it('removing the only representative moves the entity back to awaiting_associated_person_information', async () => {
        const entity = await createEntity(acme, { entityInfo: companyInfo(), entityDocuments: entityDocs() });
        const ubo = await addPerson(acme, entity.accountId, californian({ email: 'ubo-stays@example.com' }), { beneficiaryType: ['ubo'], ownershipPercentage: 80 }, personDocs());
        const rep = await addPerson(acme, entity.accountId, berliner({ email: 'only-rep@example.de' }), { beneficiaryType: ['representative'], title: 'CEO' }, personDocs('DEU'));
        await approve(ubo.beneficiaryId);
        await approve(rep.beneficiaryId);
        assert.equal((await acme.client.get(entityDetails(entity.accountId))).body.verificationStatus, 'under_review');

        const res = await acme.client.post(REMOVE_PERSON, { beneficiaryId: rep.beneficiaryId });
        assert.equal(res.status, 200, res.text);
        const details = await acme.client.get(entityDetails(entity.accountId));
        assert.equal(details.body.verificationStatus, 'awaiting_associated_person_information');
        assert.equal(details.body.associatedPersons.length, 1);
        const changes = (await eventsFor(server.database, entity.entityId)).filter((e) => e.type === 'entity.verification_status.changed');
        assert.deepEqual(
          changes.map((e) => e.data).at(-1),
          {
            object: { entityId: entity.entityId, verificationStatus: 'awaiting_associated_person_information', action: 'persons_not_ready', reason: 'an associated person is not active' },
            previousAttributes: { verificationStatus: 'under_review' },
          },
        );
      });
    });

    it('get-associated-person-details answers 400 for a malformed beneficiaryId, in the query', async () => {
      for (const bad of ['not-a-uuid', '1234', `${crypto.randomUUID()}x`]) {
        const res = await acme.client.get(personDetails(bad));
        assert.equal(res.status, 400, bad);
        assert.deepEqual(
          res.body.errors.map((e: FieldError) => [e.pointer, e.code, e.in]),
          [['/beneficiaryId', 'invalid_format', 'query']],
        );
      }
      const missing = await acme.client.get('/v1/query/get-associated-person-details');
      assert.equal(missing.status, 400);
      assert.equal(missing.body.errors[0].pointer, '/beneficiaryId');
    });

    describe('create-associated-person on the wrong account', () => {
      const body = (accountId: string) => ({ accountId, userInfo: berliner({ email: 'nowhere@example.de' }), beneficiaryDetails: { beneficiaryType: ['representative'], title: 'CEO' } });

      it('an individual account is not an entity account: 404', async () => {
        const individual = await acme.client.post('/v1/submit/create-individual-account', { userInfo: berliner({ email: 'individual@example.de' }), serviceTermsSignedAt: signedAt() });
        assert.equal(individual.status, 201, individual.text);
        const res = await acme.client.post(CREATE_PERSON, body(individual.body.accountId));
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'not_found');
        const random = await acme.client.post(CREATE_PERSON, body(crypto.randomUUID()));
        assert.deepEqual(strip(res.body), strip(random.body));
        // Neither may it be read or updated as one.
        assert.equal((await acme.client.get(entityDetails(individual.body.accountId))).status, 404);
        assert.equal((await acme.client.patch(UPDATE_ENTITY, { accountId: individual.body.accountId, entityInfo: { businessTradeName: 'x' } })).status, 404);
      });

      it('another integrator’s entity: the same 404 as a random UUID, apart from requestId', async () => {
        const foreignEntity = await createEntity(globex, { entityInfo: companyInfo() });
        const foreign = await acme.client.post(CREATE_PERSON, body(foreignEntity.accountId));
        const random = await acme.client.post(CREATE_PERSON, body(crypto.randomUUID()));
        assert.equal(foreign.status, 404, foreign.text);
        assert.equal(random.status, 404, random.text);
        assert.notEqual(foreign.body.requestId, random.body.requestId);
        assert.deepEqual(strip(foreign.body), strip(random.body));
        assert.equal(foreign.headers.get('content-type'), random.headers.get('content-type'));
        assert.equal((await personRows(foreignEntity.entityId)).length, 0, 'nothing written to the foreign entity');
        // Globex's own view is untouched; its persons are equally invisible to Acme.
        const own = await addPerson(globex, foreignEntity.accountId, berliner({ email: 'globex-rep@example.de' }), { beneficiaryType: ['representative'], title: 'CEO' });
        const foreignRead = await acme.client.get(personDetails(own.beneficiaryId));
        const randomRead = await acme.client.get(personDetails(crypto.randomUUID()));
        assert.equal(foreignRead.status, 404);
        assert.deepEqual(strip(foreignRead.body), strip(randomRead.body));
        const foreignUpdate = await acme.client.patch(UPDATE_PERSON, { beneficiaryId: own.beneficiaryId, userInfo: { phone: '+4930901820' } });
        assert.equal(foreignUpdate.status, 404);
        const foreignRemove = await acme.client.post(REMOVE_PERSON, { beneficiaryId: own.beneficiaryId });
        assert.equal(foreignRemove.status, 404);
        assert.equal((await globex.client.get(personDetails(own.beneficiaryId))).status, 200, 'still there for its owner');
      });
    });
  });
}
