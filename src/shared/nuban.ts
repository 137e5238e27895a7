/**
 * NUBAN check digit (CBN revised standard): the 6-digit institution code (3-digit codes
 * left-padded with zeros) followed by the 9-digit serial, weighted 3,7,3 repeating.
 */
const WEIGHTS = [3, 7, 3];

export function nubanCheckDigit(institutionCode: string, serial: string): number {
  const digits = institutionCode.padStart(6, '0') + serial;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    sum += Number(digits[index]) * (WEIGHTS[index % 3] ?? 0);
  }
  return (10 - (sum % 10)) % 10;
}

export function nubanFromSerial(institutionCode: string, serial: bigint): string {
  const serialText = serial.toString().padStart(9, '0');
  if (serialText.length !== 9) {
    throw new RangeError('account serial exhausted');
  }
  return serialText + nubanCheckDigit(institutionCode, serialText).toString();
}

export function isValidNuban(institutionCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) {
    return false;
  }
  return nubanCheckDigit(institutionCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}
