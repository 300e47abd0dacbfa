/** The check digits and validity rules that tell a real identifier from a look-alike run of digits (issue 38). */

/** Luhn (mod 10) over a string of ASCII digits: every payment card number passes it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * ISO 13616 IBAN check (ISO 7064 mod 97-10) over an IBAN without spaces: the first four characters moved to the end,
 * letters as 10..35, the number mod 97 must be 1. Computed digit by digit, so no big integers.
 */
export function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const c = rearranged.charCodeAt(i);
    if (c >= 48 && c <= 57) rest = (rest * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rest = (rest * 100 + (c - 55)) % 97;
    else return false;
  }
  return rest === 1;
}

/** US SSN rules: area 000, 666 and 900-999, group 00 and serial 0000 are never issued. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

/** A JWT's first part: base64url of a JSON object naming its `alg` (RFC 7515 section 4.1.1). */
export function jwtHeaderValid(part: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}
