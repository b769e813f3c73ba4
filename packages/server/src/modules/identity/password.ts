import { randomInt } from 'node:crypto';
import { meetsPasswordPolicy } from '@rpm/contracts';

/**
 * Temporary passwords: 16 characters from an alphabet without look-alikes (0/O, 1/l/I), with one
 * of each class the policy asks for, so that a person can type them from a message.
 */
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '!@#$%^&*-_=+?';
const ALL = LOWER + UPPER + DIGITS + SPECIAL;

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)]!;
}

export function generateTemporaryPassword(length = 16): string {
  for (;;) {
    const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
    while (chars.length < length) chars.push(pick(ALL));
    // Fisher-Yates, so the guaranteed classes are not always in front.
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const password = chars.join('');
    if (meetsPasswordPolicy(password)) return password;
  }
}

export { meetsPasswordPolicy };
