/**
 * The `curl` examples of a Markdown page and the answers it shows for them, read as a reader reads
 * them, for docs.test.ts to run and compare. In a ```sh block, a line `curl …` or `$ curl …`
 * (options -H, -s, -i; one URL; optionally `| grep [-i] PATTERN`) is an example. Its answer is:
 *
 * - the lines after a `$ curl` line, up to the next command: its output (body, or grep's lines);
 * - a comment line `# … {…} …` after a `curl` line: a JSON object found somewhere in the answer;
 * - else, for the block's last example, a ```json, ```xml or ```text block right after the sh block.
 *
 * An example without an answer shown must succeed (2xx). In a shown answer, `…` between elements
 * or keys means more of them were left out, and a value "…" stands for any value.
 */
export interface Curl {
  url: string;
  headers: [string, string][];
  /** -i: the status line and headers come before the body. */
  include: boolean;
  grep?: RegExp;
}

export type Shown =
  | { kind: "lines"; lines: string[] }
  | { kind: "body"; format: "json" | "xml" | "text"; text: string }
  | { kind: "fragment"; text: string };

export interface Example {
  /** `README.md:57` */
  where: string;
  command: string;
  curl: Curl;
  shown?: Shown;
}

interface Block {
  lang: string;
  lines: string[];
  /** Line numbers (1-based) of the opening and closing fences. */
  open: number;
  close: number;
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  text.split("\n").forEach((line, i) => {
    const fence = /^```(\w*)\s*$/.exec(line);
    if (current === null && fence !== null) current = { lang: fence[1] ?? "", lines: [], open: i + 1, close: 0 };
    else if (current !== null && /^```\s*$/.test(line)) {
      blocks.push({ ...current, close: i + 1 });
      current = null;
    } else current?.lines.push(line);
  });
  return blocks;
}

/** A command line's words, with quotes removed; `|` is a word of its own. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|(\|)|([^\s'"|]+))/y;
  let at = 0;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    words.push(m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3] ?? m[4] ?? "");
    at = re.lastIndex;
  }
  if (line.slice(at).trim() !== "") throw new Error(`cannot read the quotes of: ${line}`);
  return words;
}

function grepOf(words: readonly string[]): RegExp {
  const [grep, ...args] = words;
  const flags = args.filter((a) => a.startsWith("-"));
  const patterns = args.filter((a) => !a.startsWith("-"));
  if (grep !== "grep" || patterns.length !== 1 || flags.some((f) => !/^-[iE]+$/.test(f))) {
    throw new Error(`only \`| grep [-i] PATTERN\` is understood, not \`| ${words.join(" ")}\``);
  }
  return new RegExp(patterns[0] ?? "", flags.some((f) => f.includes("i")) ? "i" : "");
}

/** A curl command as the examples write it. */
export function parseCurl(command: string): Curl {
  const words = shellWords(command);
  const bar = words.indexOf("|");
  const args = bar < 0 ? words.slice(1) : words.slice(1, bar);
  const curl: Curl = { url: "", headers: [], include: false };
  if (bar >= 0) curl.grep = grepOf(words.slice(bar + 1));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "-H") {
      const header = args[++i] ?? "";
      const colon = header.indexOf(":");
      curl.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (/^-[si]+$/.test(arg)) curl.include ||= arg.includes("i");
    else if (arg.startsWith("-")) throw new Error(`curl option ${arg} is not understood: ${command}`);
    else if (curl.url === "") curl.url = arg;
    else throw new Error(`two URLs in: ${command}`);
  }
  return curl;
}

const FORMATS = { json: "json", xml: "xml", text: "text", "": "text" } as const;

/** What a block's example answers inline: its output lines, or a `# …` comment after it. */
function inlineAnswer(lines: readonly string[], command: string, curl: Curl): Shown | undefined {
  if (command.startsWith("$ ")) {
    if (lines.length === 0) return undefined;
    if (curl.grep !== undefined) return { kind: "lines", lines: [...lines] };
    const text = lines.join("\n");
    return { kind: "body", format: text.startsWith("<") ? "xml" : text.startsWith("{") ? "json" : "text", text };
  }
  const comment = lines[0]?.startsWith("# ") ? lines[0].slice(2) : undefined;
  return comment === undefined ? undefined : { kind: "fragment", text: comment };
}

/** Every curl example of a page, with the answer it shows. */
export function curlExamples(file: string, text: string): Example[] {
  const blocks = fencedBlocks(text);
  const examples: Example[] = [];
  blocks.forEach((block, b) => {
    if (block.lang !== "sh") return;
    const starts = block.lines.flatMap((line, i) => (/^(\$ )?curl /.test(line) ? [i] : []));
    starts.forEach((start, k) => {
      const command = block.lines[start] ?? "";
      const curl = parseCurl(command.replace(/^\$ /, ""));
      const following = block.lines.slice(start + 1, starts[k + 1] ?? block.lines.length);
      const answer = following.filter((line) => line.trim() !== "" && !/^(\$ |npm |npx )/.test(line));
      let shown = inlineAnswer(answer, command, curl);
      const next = blocks[b + 1];
      const adjacent =
        next !== undefined &&
        text
          .split("\n")
          .slice(block.close, next.open - 1)
          .join("")
          .trim() === "";
      if (shown === undefined && k === starts.length - 1 && adjacent && next.lang in FORMATS) {
        shown = { kind: "body", format: FORMATS[next.lang as keyof typeof FORMATS], text: next.lines.join("\n") };
      }
      examples.push({ where: `${file}:${block.open + 1 + start}`, command, curl, ...(shown ? { shown } : {}) });
    });
  });
  return examples;
}
