import assert from 'node:assert/strict';
import { randomBytes, scrypt } from 'node:crypto';
import { describe, test } from 'node:test';
import { hashPassword, needsRehash, verifyPassword } from '../../src/modules/staff-auth/passwords.ts';
import { checkPassword } from '../../src/modules/staff-auth/strength.ts';

const PASSWORD = 'cobalt wren lantern mosaic';
const GRACE = { email: 'grace.hopper@example.com', name: 'Grace Hopper' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** A hash of the stored format made by hand, with the parameters given. */
function hashByHand(password: string, n: number): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N: n, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(['scrypt', 'v1', n, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')),
    );
  });
}

/**
 * The CPU time (this process's, every thread's: scrypt runs in libuv's pool) of refusing a password,
 * in ms: the work done, which other processes' load on the machine does not change as it changes
 * the wall-clock time. (The wall-clock medians over HTTP are the browser test's.)
 */
async function millisecondsToVerify(stored: string | null): Promise<number> {
  const started = process.cpuUsage();
  await verifyPassword('not the password at all', stored);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

describe('staff password hashes', () => {
  test('a password verifies against its own hash, and a wrong one does not', async () => {
    const stored = await hashPassword(PASSWORD);
    assert.equal(await verifyPassword(PASSWORD, stored), true);
    assert.equal(await verifyPassword(`${PASSWORD}!`, stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  test('the stored string names its parameters, is salted, and never holds the password', async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    assert.match(first, /^scrypt\$v1\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(first, second, 'two hashes of one password differ by their salt');
    for (const text of [PASSWORD, Buffer.from(PASSWORD).toString('base64url'), Buffer.from(PASSWORD).toString('hex')]) {
      assert.ok(!first.includes(text));
    }
    assert.equal(needsRehash(first), false);
  });

  test('the same password typed as composed or decomposed accents verifies alike', async () => {
    const composed = 'café-à-la-crème-2026'.normalize('NFC');
    const decomposed = composed.normalize('NFD');
    assert.notEqual(composed, decomposed);
    const stored = await hashPassword(decomposed);
    assert.equal(await verifyPassword(composed, stored), true);
    assert.equal(await verifyPassword(decomposed, stored), true);
  });

  test('no stored hash, or one that does not parse, verifies nothing', async () => {
    const stored = await hashPassword(PASSWORD);
    const malformed = [
      '',
      PASSWORD,
      'scrypt$v1$32768$8$1$c2FsdA',
      stored.replace('$v1$', '$v9$'),
      stored.replace('$32768$', '$30000$'),
      stored.replace('$32768$', '$1073741824$'),
      `${stored}$extra`,
    ];
    assert.equal(await verifyPassword(PASSWORD, null), false);
    for (const text of malformed) assert.equal(await verifyPassword(PASSWORD, text), false, text);
  });

  test('a hash made with weaker parameters still verifies and asks to be made again', async () => {
    const old = await hashByHand(PASSWORD, 2 ** 14);
    assert.equal(await verifyPassword(PASSWORD, old), true);
    assert.equal(needsRehash(old), true);
  });

  test('refusing an unknown email takes as much work as refusing a wrong password', async () => {
    const stored = await hashPassword(PASSWORD);
    const unknown: number[] = [];
    const known: number[] = [];
    // Alternated, so that a slower moment of the machine falls on both sides alike.
    for (let i = 0; i < 15; i++) {
      unknown.push(await millisecondsToVerify(null));
      known.push(await millisecondsToVerify(stored));
    }
    const ratio = median(unknown) / median(known);
    assert.ok(ratio > 0.75 && ratio < 1.25, `unknown ${median(unknown).toFixed(1)} ms against known ${median(known).toFixed(1)} ms`);
  });
});

describe('staff password strength', () => {
  test('fewer than 12 characters are refused, counting characters rather than UTF-16 units', async () => {
    assert.equal(await checkPassword('Xk9#mQ2v!zT', GRACE), 'Use at least 12 characters.');
    assert.equal(await checkPassword('🦊🌵🎻🧭🪁🛶', GRACE), 'Use at least 12 characters.', 'six emoji are twelve UTF-16 units');
    assert.equal(await checkPassword(`${PASSWORD} `.repeat(40), GRACE), 'Use at most 1024 characters.');
  });

  test('a common password is refused with the reason', async () => {
    const message = await checkPassword('password1234', GRACE);
    assert.match(message ?? '', /^This password is too easy to guess: .+\.$/);
  });

  test("a password built on the person's own name is refused for them, not for someone else", async () => {
    assert.equal(
      await checkPassword('GraceHopper2026!', GRACE),
      'This password is too easy to guess: it contains your name or email address.',
    );
    assert.equal(await checkPassword('GraceHopper2026!', { email: 'ada@example.com', name: 'Ada Lovelace' }), null);
    // More of the email (digits, one-letter fragments) must not make the name a weaker guess.
    assert.equal(
      await checkPassword('GraceHopper2026!', { email: 'grace.g-11173-1@example.org', name: 'Grace Hopper' }),
      'This password is too easy to guess: it contains your name or email address.',
    );
  });

  test('a long passphrase of unrelated words is accepted', async () => {
    assert.equal(await checkPassword(PASSWORD, GRACE), null);
    assert.equal(await checkPassword('café-à-la-crème-2026', GRACE), null);
  });
});
