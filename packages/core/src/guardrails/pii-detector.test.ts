import { maskFindings } from './detectors-findings';
import { ibanValid, luhnValid, ssnValid } from './pii-checks';
import { piiDetector, PII_ENTITIES } from './pii-detector';
import type { PiiEntity } from './detectors-findings';

const mask = (text: string, entities?: PiiEntity[]) => maskFindings(text, piiDetector(entities).find(text));
/** What the detector sees in `text`, as [kind, matched text] pairs. */
const hits = (text: string, entities?: PiiEntity[]) =>
  piiDetector(entities)
    .find(text)
    .map((f) => [f.kind, text.slice(f.start, f.end)]);

describe('piiDetector: e-mail', () => {
  it.each([
    ['write to bob@example.com.', 'write to [EMAIL].'],
    ['<first.last+tag@mail.example.co.uk>', '<[EMAIL]>'],
    ['a_b%c-d@sub-domain.io, then', '[EMAIL], then'],
    ['two: x@y.org;z@w.net', 'two: [EMAIL];[EMAIL]'],
  ])('masks %j', (text, masked) => expect(mask(text)).toBe(masked));

  it.each(['@handle on social', 'user@localhost', 'a@b.c', 'price 5 @ 10.00', 'x@-bad.com', 'x@bad..com', 'node@18'])(
    'leaves %j alone',
    (text) => expect(hits(text, ['email'])).toEqual([]),
  );
});

describe('piiDetector: phone', () => {
  it.each([
    '+1 415 555 2671',
    '+14155552671',
    '+44 20 7946 0958',
    '+49 (30) 1234-5678',
    '+33 1 23 45 67 89',
    '(415) 555-2671',
    '415-555-2671',
    '415.555.2671',
    '415 555 2671',
    '1-415-555-2671',
    '1 (415) 555-2671',
    '020 7946 0958',
    '07700 900123',
    '01 23 45 67 89',
    '030 1234567',
  ])('finds %s', (number) => expect(hits(`call ${number} now`, ['phone'])).toEqual([['phone', number]]));

  it.each([
    'in 2024 and 2025',
    'it costs $1,234.56 or 1234.56 EUR',
    'order id 1234567890 and 12345678901',
    'on 2024-01-15 at 10:30:15',
    'version 1.2.3.4, ip 192.168.100.200',
    'population 8 000 000',
    '+5 points',
    'the range 100-200-3000',
    'ISBN 978-3-16-148410-0',
    '+1 415 555 2671 1234 5678 999',
  ])('leaves plain numbers alone: %s', (text) => expect(hits(text, ['phone'])).toEqual([]));
});

describe('piiDetector: payment cards (Luhn)', () => {
  it.each([
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '4111111111111111',
    '378282246310005',
    '3782 822463 10005',
    '5555 5555 5555 4444',
    '6011 0009 9013 9424',
    '4222222222222',
    '4111 1111 1111 1111 003',
  ])('finds %s', (card) => {
    // the 19-digit form with its Luhn digit: 4111 1111 1111 1111 00x passes only with the right x
    const text = card.endsWith('003') ? card.slice(0, -1) + validLastDigit(card.slice(0, -1).replace(/\D/g, '')) : card;
    expect(hits(`pay with ${text}.`, ['card'])).toEqual([['card', text]]);
  });

  it.each([
    '4111 1111 1111 1112', // Luhn fails
    '4111111111111112',
    '1234 5678 9012 3456', // Luhn fails, and no network starts with 1
    '0000 0000 0000 0000',
    '4111 1111-1111 1111', // mixed separators
    '2020 2021 2022 2023 2024', // a list of years
    'order 41111111111111110', // 17 digits, Luhn fails
  ])('leaves %s alone', (text) => expect(hits(text, ['card'])).toEqual([]));

  it('checks Luhn', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });
});

function validLastDigit(prefix: string): string {
  for (let d = 0; d < 10; d++) if (luhnValid(prefix + d)) return String(d);
  throw new Error('unreachable');
}

describe('piiDetector: IBAN (mod 97)', () => {
  it.each([
    'DE89 3704 0044 0532 0130 00',
    'DE89370400440532013000',
    'GB82 WEST 1234 5698 7654 32',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
  ])('finds %s', (iban) => expect(hits(`send to ${iban} today`, ['iban'])).toEqual([['iban', iban]]));

  it('stops at the IBAN when capitals follow it', () => {
    expect(mask('to DE89 3704 0044 0532 0130 00 THEN', ['iban'])).toBe('to [IBAN] THEN');
    expect(mask('NL91 ABNA 0417 1643 00 NEXT WORD', ['iban'])).toBe('[IBAN] NEXT WORD');
  });

  it.each([
    'DE89 3704 0044 0532 0130 01',
    'DE88370400440532013000',
    'GB82WEST12345698765431',
    'AB12 CDEF GHIJ KLMN',
    'XX00 0000 0000 0000 00',
  ])('refuses %s (check digits)', (text) => expect(hits(text, ['iban'])).toEqual([]));

  it('checks mod 97', () => {
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(ibanValid('GB82WEST1234')).toBe(false);
  });
});

describe('piiDetector: US SSN', () => {
  it('finds AAA-GG-SSSS', () => expect(mask('SSN: 123-45-6789.', ['ssn'])).toBe('SSN: [SSN].'));

  it.each([
    '000-12-3456',
    '666-12-3456',
    '900-12-3456',
    '999-12-3456',
    '123-00-4567',
    '123-45-0000',
    '123-45-67890',
    'A123-45-6789',
    '123456789',
    '1123-45-6789',
  ])('refuses %s', (text) => expect(hits(text, ['ssn'])).toEqual([]));

  it('checks the issued ranges', () => {
    expect(ssnValid('078', '05', '1120')).toBe(true);
    expect(ssnValid('666', '05', '1120')).toBe(false);
  });
});

describe('piiDetector: secrets', () => {
  const keys = [
    'sk-abc123DEF456ghi789JKL012mno345PQR678stu901',
    'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_Ab3dEf6hIj-9kLm',
    'sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2nOp5q-AA',
    'AKIAIOSFODNN7EXAMPLE',
    'ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP',
    'AIzaSyA-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4',
    'xoxb-123456789012-123456789012-Ab3dEf6hIj9kLm2nOp5qRs8t',
    'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
    'rk_live_4eC39HqLyjWDarjtT1zdp7dc',
  ];
  it.each(keys)('finds %s', (key) => expect(mask(`key=${key} done`, ['secret'])).toBe('key=[SECRET] done'));

  it('finds a PEM private-key block whole, and a cut-off one from its header', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Bx\nAbC+/=\n-----END RSA PRIVATE KEY-----';
    expect(mask(`here:\n${pem}\nthanks`, ['secret'])).toBe('here:\n[SECRET]\nthanks');
    expect(mask('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', ['secret'])).toBe('[SECRET]');
    expect(mask('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----', ['secret'])).toBe('[SECRET]');
  });

  it.each([
    'task-this-is-a-long-hyphenated-identifier-here',
    'sk-this-is-a-long-hyphenated-english-phrase',
    'risk-abcdefghij1234567890abcdefghij',
    'AKIA123',
    'a public key: -----BEGIN PUBLIC KEY-----',
    'ghp_short',
  ])('leaves %s alone', (text) => expect(hits(text, ['secret'])).toEqual([]));
});

describe('piiDetector: JWT', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
  it('finds a JWT and masks it as [SECRET]', () => {
    expect(mask(`Authorization: Bearer ${jwt}.`, ['jwt'])).toBe('Authorization: Bearer [SECRET].');
  });

  it('finds an unsigned JWT (alg none, empty signature)', () => {
    const header = Buffer.from('{"alg":"none"}').toString('base64url');
    expect(hits(`${header}.eyJzdWIiOiIxIn0.`, ['jwt'])).toHaveLength(1);
  });

  it('refuses three dotted parts whose header is not JSON naming an alg', () => {
    const noAlg = Buffer.from('{"typ":"JWT"}').toString('base64url');
    expect(hits(`${noAlg}.eyJzdWIiOiIxIn0.abc`, ['jwt'])).toEqual([]);
    expect(hits('eyJnotbase64json.abc.def', ['jwt'])).toEqual([]);
    expect(hits('file.name.txt', ['jwt'])).toEqual([]);
  });
});

describe('piiDetector: entities and overlaps', () => {
  it('checks only the entities asked for; absent means all', () => {
    const text = 'bob@example.com 123-45-6789';
    expect(hits(text, ['ssn'])).toEqual([['ssn', '123-45-6789']]);
    expect(hits(text).map(([kind]) => kind)).toEqual(['email', 'ssn']);
    expect(PII_ENTITIES).toEqual(['email', 'phone', 'card', 'iban', 'ssn', 'secret', 'jwt']);
  });

  it('throws on an unknown entity', () => {
    expect(() => piiDetector(['email', 'passport' as PiiEntity])).toThrow(/unknown pii entity "passport"/);
  });

  it('reports overlapping hits once, the longest', () => {
    // a card number inside a PEM body, an e-mail inside a secret's surroundings
    const text = '-----BEGIN PRIVATE KEY-----\n4111111111111111\n-----END PRIVATE KEY----- and bob@example.com';
    expect(mask(text)).toBe('[SECRET] and [EMAIL]');
  });

  it('masks a prompt with every kind of entity', () => {
    const text =
      'I am bob@example.com, +1 415 555 2671, card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, SSN 123-45-6789, key AKIAIOSFODNN7EXAMPLE.';
    expect(mask(text)).toBe('I am [EMAIL], [PHONE], card [CARD], IBAN [IBAN], SSN [SSN], key [SECRET].');
  });
});

describe('piiDetector on hostile input', () => {
  // every rule is linear: 200,000 characters of each shape that could make a backtracking pattern slow
  const shapes = [
    '1 '.repeat(100_000),
    '1-'.repeat(100_000),
    '+1'.repeat(100_000),
    '4'.repeat(200_000),
    'a@'.repeat(100_000),
    `${'a'.repeat(200_000)}@`,
    `x@${'a.'.repeat(100_000)}`,
    `sk-${'a'.repeat(200_000)}`,
    `eyJ${'a'.repeat(200_000)}.`,
    'DE89 '.repeat(40_000),
    'AB12'.repeat(50_000),
    `-----BEGIN PRIVATE KEY-----${' A'.repeat(100_000)}`,
  ];
  it.each(shapes.map((s) => [s.slice(0, 12), s]))('%s… is scanned in linear time', (_, text) => {
    const started = process.hrtime.bigint();
    piiDetector().find(text);
    // a quadratic rule would take minutes here; a generous bound for a shared machine
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(3000);
  });
});
