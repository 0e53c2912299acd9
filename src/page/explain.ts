/**
 * A refused search (400) in words, for the field it is about: the API's message names the
 * parameter (docs/api.md#errors), or says that the whole query string is too long, which the
 * field with the longest value is told. Pure.
 */

export interface Explained {
  /** The parameter the message is about (the field to tell), or null for none. */
  param: string | null;
  words: string;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;

/** The parameter whose value takes the most of the query string once encoded (the first of equals). */
function longest(sent: URLSearchParams): string | null {
  let found: { param: string; length: number } | null = null;
  for (const [param, value] of sent) {
    const length = new URLSearchParams({ v: value }).toString().length;
    if (found === null || length > found.length) found = { param, length };
  }
  return found?.param ?? null;
}

export function explainRefusal(message: string, sent: URLSearchParams): Explained {
  const tooLong = /^parameter (\w+) is longer than (\d+) characters$/.exec(message);
  if (tooLong) return { param: tooLong[1] ?? null, words: `Too long: at most ${tooLong[2]} characters.` };
  const queryTooLong = /^the query string is longer than (\d+) bytes$/.exec(message);
  if (queryTooLong) {
    const bytes = Number(queryTooLong[1]).toLocaleString("en");
    return {
      param: longest(sent),
      words:
        `Too long all together: a search takes at most ${bytes} bytes as sent, and a letter such as ` +
        "“é” takes 6 of them, “€” or “東” 9. Shorten this or another field.",
    };
  }
  const named = /^parameter (\w+) (.+)$/.exec(message);
  if (named) return { param: named[1] ?? null, words: sentence(named[2] ?? "") };
  return { param: null, words: sentence(message) };
}
