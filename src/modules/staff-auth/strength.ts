// Staff passwords: at least 12 characters and hard to guess (ADR 0022).
import { normalisePassword } from './passwords.ts';

const MIN_CHARACTERS = 12;
/** Long enough for any passphrase; short enough that hashing and checking it stay cheap. */
const MAX_CHARACTERS = 1024;
/** zxcvbn's "safely unguessable" band: about 10^8 guesses or more, slow against a scrypt hash. */
const MIN_SCORE = 3;

/**
 * Built once, at the first check: the dictionaries are ranked when the factory is made, which takes
 * a moment (about 0.4 s on a busy 2-core machine) that no other command or start should pay. The one
 * warning rewritten is zxcvbn's "personal or page related data", which means nothing to someone
 * choosing a password on our form.
 */
let factory: Promise<{ check: (password: string, inputs: string[]) => Result; anotherWord: string }> | null = null;

interface Result {
  score: number;
  feedback: { warning: string | null; suggestions: string[] };
}

function estimator() {
  factory ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: {
        ...english.translations,
        warnings: { ...english.translations.warnings, userInputs: 'It contains your name or email address.' },
      },
    });
    return {
      check: (password: string, inputs: string[]) => zxcvbn.check(password, inputs) as Result,
      anotherWord: english.translations.suggestions.anotherWord,
    };
  })();
  return factory;
}

/** The words someone guessing this person's password would try first. */
function personalWords({ email, name }: { email: string; name: string }): string[] {
  const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const localPart = email.split('@')[0] ?? '';
  const nameWords = words(name);
  // The name run together too: "GraceHopper" is one guess, not two words that happen to meet. zxcvbn
  // ranks user inputs by their place in the list (a later one counts as more guesses), so the likeliest
  // guesses come first, and fragments too short to be a guess (the "1" of "ada.1") are left out.
  const likely = [nameWords.join(''), ...nameWords, localPart, ...words(localPart), email];
  return [...new Set(likely.filter((word) => [...word].length >= 3).map((word) => word.toLowerCase()))];
}

/** "This is a heavily used password." reads on after a colon as "this is a heavily used password." */
function asClause(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/**
 * Null when the password may be used, otherwise one sentence for the form saying what is wrong.
 * Lengths count characters as people do (code points), so an accented letter or an emoji is one.
 */
export async function checkPassword(password: string, context: { email: string; name: string }): Promise<string | null> {
  const normalised = normalisePassword(password);
  const characters = [...normalised].length;
  if (characters < MIN_CHARACTERS) return `Use at least ${MIN_CHARACTERS} characters.`;
  if (characters > MAX_CHARACTERS) return `Use at most ${MAX_CHARACTERS} characters.`;
  const zxcvbn = await estimator();
  const result = zxcvbn.check(normalised, personalWords(context));
  if (result.score >= MIN_SCORE) return null;
  const advice = result.feedback.warning ?? result.feedback.suggestions[0] ?? zxcvbn.anotherWord;
  return `This password is too easy to guess: ${asClause(advice)}`;
}
