import { MIN_PASSWORD_LENGTH } from '../../shared/contract/team.ts';

/**
 * What a new password must be: long enough, not the e-mail (or its name part), not one character repeated or a
 * run of the keyboard, and not one of the passwords lists of leaked ones put first. The list holds only the common
 * ones of 12 characters or more (shorter ones are refused by length).
 */
const COMMON = new Set([
  '123456789012', '1234567890123', '12345678901234', '123456789123', '111111111111', '000000000000', '123123123123',
  'password1234', 'password12345', 'password123!', 'passwordpassword', 'password1234!', 'p@ssw0rd1234', 'p@ssword1234',
  'qwertyuiop12', 'qwertyuiop123', 'qwerty123456', 'qwertyqwerty', '1qaz2wsx3edc', '1q2w3e4r5t6y', 'q1w2e3r4t5y6',
  'asdfghjkl123', 'zxcvbnm12345', 'iloveyou1234', 'letmein12345', 'welcome12345', 'welcome123456', 'changeme1234',
  'administrator', 'admin1234567', 'adminadmin123', 'football1234', 'baseball1234', 'superman1234', 'starwars1234',
  'trustno1trustno1', 'sunshine1234', 'princess1234', 'monkey123456', 'dragon123456', 'master123456', 'abc123456789',
  'abcdefghijkl', 'abcd12345678', 'qazwsxedcrfv', 'correcthorsebatterystaple', 'passw0rdpassw0rd', 'computer1234',
  'internet1234', 'whatever1234', 'nigeria12345', 'lagos1234567', 'checkout1234', 'dashboard123',
]);

const KEYBOARD_RUNS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'abcdefghijklmnopqrstuvwxyz'];

/** Why the password is refused, in words for the member; undefined when it is accepted. */
export function passwordProblem(password: string, email: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  const address = email.toLowerCase();
  const name = (address.split('@')[0] ?? '').replace(/[^a-z0-9]/g, '');
  if (lower.includes(address) || (name.length >= 4 && lower.replace(/[^a-z0-9]/g, '').includes(name))) {
    return 'The password must not be your e-mail address or contain it.';
  }
  if (new Set(lower).size <= 2) return 'The password must not be one or two characters repeated.';
  if (COMMON.has(lower) || KEYBOARD_RUNS.some((run) => run.includes(lower) || (lower.length <= run.length + 2 && lower.startsWith(run.slice(0, 10))))) {
    return 'The password is one of the most common ones; choose another.';
  }
  return undefined;
}
