/**
 * The one scrubber for free text that is stored or logged (descriptions, names, link fields, event names,
 * metadata keys and values). Clients do put card data in places they should not, and a card number's check digit
 * says nothing about whether it is one: the gateway's own test card fails Luhn. So every run of 12 or more digits
 * (single spaces or dashes between them allowed: `4242 4242-4242 4242`) is masked whatever its check digit, and so
 * are the 3 or 4 digits after a security-code label (`cvv 123`, `CVC: 1234`, `security code is 123`).
 */
const DIGIT_RUN = /\d(?:[ -]?\d)*/g;
const PAN_DIGITS = 12;
const SECURITY_CODE = /\b(cvv2?|cvc2?|cvn|csc|cid|security[ _-]?code|card[ _-]?code)(\W{0,5}(?:is\W{1,3})?)(\d{3,4})\b/gi;

export function redactCardData(text: string): string {
  const masked = text.replace(DIGIT_RUN, (run) => {
    let digits = 0;
    for (const character of run) if (character !== ' ' && character !== '-') digits += 1;
    return digits < PAN_DIGITS ? run : run.replace(/\d/g, '*');
  });
  return masked.replace(SECURITY_CODE, (_match, label: string, gap: string, code: string) => `${label}${gap}${'*'.repeat(code.length)}`);
}
