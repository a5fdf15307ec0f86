/**
 * NPI numbers (CMS National Provider Identifier): 10 digits whose last digit is a Luhn check digit computed
 * over the constant prefix 80840 followed by the first 9 digits.
 */
function luhnSum(digits: string, doubleFirstFromRight: boolean): number {
  let sum = 0;
  let dbl = doubleFirstFromRight;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum;
}

/** The check digit for a 9-digit NPI base. */
export function npiCheckDigit(base9: string): number {
  if (!/^\d{9}$/.test(base9)) throw new Error('An NPI base is 9 digits');
  // the check digit will sit to the right, so the rightmost base digit is doubled
  const sum = luhnSum(`80840${base9}`, true);
  return (10 - (sum % 10)) % 10;
}

export function makeNpi(base9: string): string {
  return `${base9}${npiCheckDigit(base9)}`;
}

export function isValidNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && luhnSum(`80840${npi}`, false) % 10 === 0;
}
