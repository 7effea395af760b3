import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ageOn } from '../../../src/domain/onboarding/validation/dates.js';
import { isValidSsn, maskSsn, normalizeSsn } from '../../../src/domain/onboarding/validation/ssn.js';
import { validateUserInfo } from '../../../src/domain/onboarding/validation/user-info.js';
import { NOW, assertOnly, assertValid, deUser, gbAddress, jpAddress, usUser, withField } from './fixtures.js';

const P = '/userInfo';
const check = (userInfo: unknown) => validateUserInfo(userInfo, P, NOW);

describe('validateUserInfo', () => {
  it('accepts a Californian with an SSN, a Berliner without one, a Londoner and a Tokyoite', () => {
    assertValid(check(usUser()));
    assertValid(check(deUser()));
    assertValid(check({ ...deUser(), phone: '+442071838750', nationality: 'GBR', residentialAddress: gbAddress() }));
    assertValid(check({ ...deUser(), phone: '+81312345678', nationality: 'JPN', residentialAddress: jpAddress() }));
    // Only the required fields.
    assertValid(check({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }));
    // Every optional field null.
    const nulls = { middleName: null, phone: null, birthDate: null, nationality: null, countryOfBirth: null, residentialAddress: null, socialSecurityNumber: null, profilePictureUrl: null };
    assertValid(check({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ...nulls }));
  });

  it('names must be given and not blank', () => {
    for (const field of ['firstName', 'lastName']) {
      assertOnly(check({ ...usUser(), [field]: '   ' }), `${P}/${field}`, 'required');
      assertOnly(check(withField(usUser(), [field], undefined)), `${P}/${field}`, 'required');
      assertOnly(check({ ...usUser(), [field]: ['Ada'] }), `${P}/${field}`, 'invalid_type');
    }
    assertOnly(check({ ...usUser(), middleName: 3 }), `${P}/middleName`, 'invalid_type');
  });

  it('free text must not hold control characters or lone surrogates (PostgreSQL cannot store NUL)', () => {
    assertOnly(check({ ...usUser(), firstName: '\u0000' }), `${P}/firstName`, 'invalid_characters');
    assertOnly(check({ ...usUser(), lastName: 'Love\u0007lace' }), `${P}/lastName`, 'invalid_characters');
    assertOnly(check({ ...usUser(), middleName: 'B\ud800' }), `${P}/middleName`, 'invalid_characters');
    assertOnly(check(withField(usUser(), ['residentialAddress', 'city'], 'San Francisco\u0000')), `${P}/residentialAddress/city`, 'invalid_characters');
    assertOnly(check({ ...usUser(), profilePictureUrl: 'https://cdn.example.com/a\u0000.png' }), `${P}/profilePictureUrl`, 'invalid_characters');
    assertValid(check({ ...usUser(), firstName: 'Zoë 😀', lastName: "O'Brien-Ñúñez" }));
  });

  it('email must be a plausible address', () => {
    for (const email of ['ada', 'ada@', '@example.com', 'ada@example', 'ada lovelace@example.com', 'ada@exa mple.com', 'ada..l@example.com', 'ada@-example.com', 'ada@example.c', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(250)}.com`]) {
      assertOnly(check({ ...usUser(), email }), `${P}/email`, 'invalid_email');
    }
    for (const email of ['a.b+tag@sub.example.co.uk', "o'brien@example.ie", 'x@xn--bcher-kva.example']) assertValid(check({ ...usUser(), email }));
    assertOnly(check(withField(usUser(), ['email'], undefined)), `${P}/email`, 'required');
  });

  it('phone must be a valid E.164 number', () => {
    for (const phone of ['4155552671', '+1 415 555 2671', '+1-415-555-2671', '+1415555267', '+10155552671', '+4912', '+999123456789', '+', '']) {
      assertOnly(check({ ...usUser(), phone }), `${P}/phone`, 'invalid_phone');
    }
    assertOnly(check({ ...usUser(), phone: 14155552671 }), `${P}/phone`, 'invalid_type');
  });

  it('birthDate must be a real, past date giving an age of 18 to 120', () => {
    for (const birthDate of ['2023-02-30', '1990-13-01', '1990-00-10', '1990-1-5', '05/06/1990', '1990-02-29T00:00:00Z', '']) {
      assertOnly(check({ ...usUser(), birthDate }), `${P}/birthDate`, 'invalid_date');
    }
    assertOnly(check({ ...usUser(), birthDate: '2025-06-02' }), `${P}/birthDate`, 'invalid_date');
    assertOnly(check({ ...usUser(), birthDate: '2030-01-01' }), `${P}/birthDate`, 'invalid_date');
    assertOnly(check({ ...usUser(), birthDate: '2007-06-02' }), `${P}/birthDate`, 'age_out_of_range');
    assertOnly(check({ ...usUser(), birthDate: '2025-06-01' }), `${P}/birthDate`, 'age_out_of_range');
    assertOnly(check({ ...usUser(), birthDate: '1904-05-31' }), `${P}/birthDate`, 'age_out_of_range');
    assertValid(check({ ...usUser(), birthDate: '2007-06-01' })); // 18 today
    assertValid(check({ ...usUser(), birthDate: '1905-06-01' })); // 120 today
    assertValid(check({ ...usUser(), birthDate: '1996-02-29' }));
  });

  it('ageOn counts completed years on the UTC date', () => {
    assert.equal(ageOn('2000-06-01', NOW), 25);
    assert.equal(ageOn('2000-06-02', NOW), 24);
    assert.equal(ageOn('2004-02-29', new Date('2022-02-28T23:59:59Z')), 17);
    assert.equal(ageOn('2004-02-29', new Date('2022-03-01T00:00:00Z')), 18);
    assert.equal(ageOn('2004-02-29', new Date('2024-02-29T00:00:00Z')), 20);
    assert.ok(Number.isNaN(ageOn('2023-02-30', NOW)));
  });

  it('nationality and countryOfBirth must be supported codes', () => {
    for (const field of ['nationality', 'countryOfBirth']) {
      assertOnly(check({ ...usUser(), [field]: 'US' }), `${P}/${field}`, 'invalid_value');
      assertOnly(check({ ...usUser(), [field]: 'PRK' }), `${P}/${field}`, 'invalid_value');
      assertOnly(check({ ...usUser(), [field]: 840 }), `${P}/${field}`, 'invalid_type');
    }
  });

  it('the residential address is validated at its own pointer', () => {
    assertOnly(check(withField(usUser(), ['residentialAddress', 'postalCode'], '941')), `${P}/residentialAddress/postalCode`, 'invalid_postal_code');
    assertOnly(check(withField(deUser(), ['residentialAddress', 'state'], 'US-CA')), `${P}/residentialAddress/state`, 'invalid_subdivision');
  });

  it('profilePictureUrl must be an http(s) URL', () => {
    for (const url of ['ftp://example.com/a.png', 'http:example.com/a.png', 'https:/example.com/a.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/avatars/a.png', 'https://user:pw@example.com/a.png', ' https://example.com/a.png', 'https://example.com/a b.png', 'https://']) {
      assertOnly(check({ ...usUser(), profilePictureUrl: url }), `${P}/profilePictureUrl`, 'invalid_url');
    }
    assertValid(check({ ...usUser(), profilePictureUrl: 'http://example.com:8080/a%20b.png?size=64' }));
  });

  it('an SSN is required for US residents and must be issuable', () => {
    assertOnly(check({ ...usUser(), socialSecurityNumber: null }), `${P}/socialSecurityNumber`, 'required');
    assertOnly(check(withField(usUser(), ['socialSecurityNumber'], undefined)), `${P}/socialSecurityNumber`, 'required');
    assertOnly(check({ ...usUser(), socialSecurityNumber: '' }), `${P}/socialSecurityNumber`, 'required');
    for (const ssn of ['000-12-3456', '666-12-3456', '900-12-3456', '999123456', '123-00-4567', '123-45-0000', '123-456-789', '12345678', '1234567890', '123 45 6789', '***-**-6789']) {
      assertOnly(check({ ...usUser(), socialSecurityNumber: ssn }), `${P}/socialSecurityNumber`, 'invalid_ssn');
    }
    assertValid(check({ ...usUser(), socialSecurityNumber: '536228741' }));
    assertOnly(check({ ...usUser(), socialSecurityNumber: 536228741 }), `${P}/socialSecurityNumber`, 'invalid_type');
    // Not required elsewhere, but checked when a non-US resident gives one.
    assertValid(check({ ...deUser(), socialSecurityNumber: '536-22-8741' }));
    assertOnly(check({ ...deUser(), socialSecurityNumber: '000-00-0000' }), `${P}/socialSecurityNumber`, 'invalid_ssn');
  });

  it('normalizeSsn and maskSsn', () => {
    assert.equal(normalizeSsn('536-22-8741'), '536228741');
    assert.equal(maskSsn('536-22-8741'), '***-**-8741');
    assert.equal(maskSsn('536228741'), '***-**-8741');
    assert.equal(maskSsn('12'), '***-**-**12');
  });

  it('property: SSN validity on random 9-digit strings follows the rule set, in both forms', () => {
    const digit = fc.constantFrom(...'0123456789');
    fc.assert(
      fc.property(fc.array(digit, { minLength: 9, maxLength: 9 }).map((d) => d.join('')), (digits) => {
        const area = Number(digits.slice(0, 3));
        const expected = area !== 0 && area !== 666 && area < 900 && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
        const dashed = `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
        assert.equal(isValidSsn(digits), expected);
        assert.equal(isValidSsn(dashed), expected);
        assert.equal(normalizeSsn(dashed), digits);
        assert.equal(maskSsn(dashed), `***-**-${digits.slice(5)}`);
        const errors = check({ ...usUser(), socialSecurityNumber: dashed });
        if (expected) assertValid(errors);
        else assertOnly(errors, `${P}/socialSecurityNumber`, 'invalid_ssn');
      }),
      { numRuns: 1000 },
    );
  });

  it('property: a birth date decides validity by calendar and age alone', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1880-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        const birthDate = date.toISOString().slice(0, 10);
        const errors = check({ ...usUser(), birthDate });
        const age = ageOn(birthDate, NOW);
        if (birthDate > '2025-06-01') assertOnly(errors, `${P}/birthDate`, 'invalid_date');
        else if (age < 18 || age > 120) assertOnly(errors, `${P}/birthDate`, 'age_out_of_range');
        else assertValid(errors);
      }),
      { numRuns: 500 },
    );
  });
});
