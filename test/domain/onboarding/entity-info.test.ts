import { describe, it } from 'node:test';
import { validateEntityInfo } from '../../../src/domain/onboarding/validation/entity-info.js';
import { assertOnly, assertValid, deAddress, usAddress, withField } from './fixtures.js';

const P = '/entityInfo';
const check = (info: unknown) => validateEntityInfo(info, P);

const entity = () => ({
  businessLegalName: 'Acme Payments, Inc.',
  businessTradeName: 'Acme',
  businessType: 'corporation',
  companyNumber: 'C4567890',
  email: 'compliance@acme.example',
  website: 'https://acme.example',
  logoUrl: 'https://acme.example/logo.png',
  registeredAddress: { ...usAddress(), state: 'US-DE', city: 'Wilmington', postalCode: '19801' },
  physicalAddress: usAddress(),
  activityInfo: { businessDescription: 'Payroll software for small businesses', businessIndustry: 541511 },
  financialInfo: {
    preferredPrimaryCurrency: 'usd',
    sourceOfFunds: 'business_revenue',
    estimatedAnnualRevenueUsd: '1000000_10000000',
    expectedMonthlyPaymentsUsd: 250000,
    hasMaterialIntermediaryEntityOwner: false,
  },
  highRiskInfo: {
    operatesInProhibitedCountries: false,
    highRiskActivities: 'none',
    conductsMoneyServices: false,
  },
});

describe('validateEntityInfo', () => {
  it('accepts a full entity, an empty update and single-field updates', () => {
    assertValid(check(entity()));
    assertValid(check({}));
    assertValid(check({ businessTradeName: 'Acme Pay' }));
    assertValid(check({ physicalAddress: deAddress() }));
    assertValid(check({ activityInfo: { businessIndustry: 52 } }));
    assertValid(check({ financialInfo: { expectedMonthlyPaymentsUsd: 0 } }));
    assertValid(check({ highRiskInfo: { highRiskActivities: 'gambling', highRiskActivitiesExplanation: 'Licensed online casino (MGA/B2C/123)' } }));
    assertValid(check({ highRiskInfo: { conductsMoneyServices: true, conductsMoneyServicesDescription: 'Registered MSB, FinCEN 31000123456789' } }));
  });

  it('string fields are non-blank, e-mails and URLs well formed', () => {
    for (const field of ['businessLegalName', 'businessTradeName', 'companyNumber']) {
      assertOnly(check({ ...entity(), [field]: ' ' }), `${P}/${field}`, 'required');
      assertOnly(check({ ...entity(), [field]: null }), `${P}/${field}`, 'invalid_type');
    }
    assertOnly(check({ ...entity(), email: 'compliance@acme' }), `${P}/email`, 'invalid_email');
    assertOnly(check({ ...entity(), website: 'acme.example' }), `${P}/website`, 'invalid_url');
    assertOnly(check({ ...entity(), logoUrl: 'file:///etc/passwd' }), `${P}/logoUrl`, 'invalid_url');
    assertOnly(check({ ...entity(), website: 42 }), `${P}/website`, 'invalid_type');
    assertOnly(check({ ...entity(), businessLegalName: 'Acme\u0000' }), `${P}/businessLegalName`, 'invalid_characters');
    assertOnly(check({ activityInfo: { businessDescription: 'Line one\u001bLine two' } }), `${P}/activityInfo/businessDescription`, 'invalid_characters');
    assertValid(check({ activityInfo: { businessDescription: 'Line one\nLine two\twith a tab' } }));
  });

  it('businessType comes from the list', () => {
    assertOnly(check({ ...entity(), businessType: 'LLC' }), `${P}/businessType`, 'invalid_value');
    assertOnly(check({ ...entity(), businessType: null }), `${P}/businessType`, 'invalid_type');
  });

  it('addresses are validated at their own pointers', () => {
    assertOnly(check(withField(entity(), ['registeredAddress', 'state'], null)), `${P}/registeredAddress/state`, 'required');
    assertOnly(check(withField(entity(), ['physicalAddress', 'postalCode'], 'ABCDE')), `${P}/physicalAddress/postalCode`, 'invalid_postal_code');
    assertOnly(check({ ...entity(), physicalAddress: null }), `${P}/physicalAddress`, 'invalid_type');
    assertOnly(check({ ...entity(), physicalAddress: 'Main St' }), `${P}/physicalAddress`, 'invalid_type');
  });

  it('activityInfo', () => {
    for (const code of [5, 1234567, -52, 52.5]) {
      assertOnly(check(withField(entity(), ['activityInfo', 'businessIndustry'], code)), `${P}/activityInfo/businessIndustry`, 'invalid_value');
    }
    assertOnly(check(withField(entity(), ['activityInfo', 'businessIndustry'], '541511')), `${P}/activityInfo/businessIndustry`, 'invalid_type');
    assertOnly(check(withField(entity(), ['activityInfo', 'businessDescription'], '')), `${P}/activityInfo/businessDescription`, 'required');
    assertOnly(check({ ...entity(), activityInfo: [] }), `${P}/activityInfo`, 'invalid_type');
  });

  it('financialInfo', () => {
    const at = (field: string) => `${P}/financialInfo/${field}`;
    assertOnly(check(withField(entity(), ['financialInfo', 'preferredPrimaryCurrency'], 'USD')), at('preferredPrimaryCurrency'), 'invalid_value');
    assertOnly(check(withField(entity(), ['financialInfo', 'sourceOfFunds'], 'salary')), at('sourceOfFunds'), 'invalid_value');
    for (const range of ['10000000_1000000', '1m_10m', '1000000']) {
      assertOnly(check(withField(entity(), ['financialInfo', 'estimatedAnnualRevenueUsd'], range)), at('estimatedAnnualRevenueUsd'), 'invalid_range');
    }
    assertValid(check(withField(entity(), ['financialInfo', 'estimatedAnnualRevenueUsd'], '2000000_3000000')));
    for (const amount of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      assertOnly(check(withField(entity(), ['financialInfo', 'expectedMonthlyPaymentsUsd'], amount)), at('expectedMonthlyPaymentsUsd'), 'invalid_value');
    }
    assertOnly(check(withField(entity(), ['financialInfo', 'expectedMonthlyPaymentsUsd'], '250000')), at('expectedMonthlyPaymentsUsd'), 'invalid_type');
    assertOnly(check(withField(entity(), ['financialInfo', 'hasMaterialIntermediaryEntityOwner'], 'no')), at('hasMaterialIntermediaryEntityOwner'), 'invalid_type');
    assertOnly(check(withField(entity(), ['financialInfo', 'hasMaterialIntermediaryEntityOwner'], null)), at('hasMaterialIntermediaryEntityOwner'), 'invalid_type');
  });

  it('highRiskInfo and its explanations', () => {
    const at = (field: string) => `${P}/highRiskInfo/${field}`;
    assertOnly(check(withField(entity(), ['highRiskInfo', 'highRiskActivities'], 'arms')), at('highRiskActivities'), 'invalid_value');
    assertOnly(check(withField(entity(), ['highRiskInfo', 'highRiskActivities'], 'cryptocurrency')), at('highRiskActivitiesExplanation'), 'required');
    assertOnly(check({ highRiskInfo: { highRiskActivities: 'weapons', highRiskActivitiesExplanation: '  ' } }), at('highRiskActivitiesExplanation'), 'required');
    assertOnly(check(withField(entity(), ['highRiskInfo', 'conductsMoneyServices'], true)), at('conductsMoneyServicesDescription'), 'required');
    assertOnly(check(withField(entity(), ['highRiskInfo', 'conductsMoneyServices'], 'yes')), at('conductsMoneyServices'), 'invalid_type');
    assertOnly(check(withField(entity(), ['highRiskInfo', 'operatesInProhibitedCountries'], 1)), at('operatesInProhibitedCountries'), 'invalid_type');
    assertOnly(check({ highRiskInfo: { conductsMoneyServices: true, conductsMoneyServicesDescription: 5 } }), at('conductsMoneyServicesDescription'), 'invalid_type');
  });

  it('a non-object is one error', () => {
    assertOnly(check('Acme'), P, 'invalid_type');
  });
});
