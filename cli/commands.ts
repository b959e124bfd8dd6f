/** The commands other than inspect, loaded only when one of them runs (main.ts): each reads, decodes and writes as the command says. */
import { buildFromSpec, BuildSpecError } from "../src/core/edit/build-spec.ts";
import { loadXxh3 } from "../src/checksum/xxh3.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import { plural } from "../src/format/values.ts";
import { convertOne, isDirectory, parseFormat } from "./containers.ts";
import { diagramOf, parseDiagramTarget, parseRange, pictureOf, reportDirectory, reportOf, subjectOf, type Subject } from "./findings.ts";
import { explainText } from "./explain.ts";
import { listMessages } from "./messages.ts";
import type { CommandSpec, ParsedArgs } from "./args.ts";
import { openSink, readInputBytes, slices, UsageError, writeText } from "./io.ts";
import { captureInput, extractCapture, parsePort, reportCapture } from "./capture.ts";
import { count, formatOf, has, operandOf, outOf, redactChoice, writerTo } from "./command-options.ts";

/** The `report` command. */
export async function report(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = outOf(parsed);
  const capture = await captureInput(path, formatOf(parsed));
  if (capture && "source" in capture) {
    try {
      const r = await reportCapture(capture, parsePort(parsed.options.get("--port")));
      const writer = writerTo(out);
      await writer.write(slices(r.text));
      await writer.end();
      return r.status;
    } finally {
      capture.close();
    }
  }
  const svgPath = parsed.options.get("--svg");
  const baseUrl = parsed.options.get("--base-url");
  if (typeof baseUrl === "string" && !/^https?:\/\/[^\s#]+$/.test(baseUrl))
    throw new UsageError(`iggy-batch: --base-url takes the explorer's http(s) address, not ${JSON.stringify(visibleText(baseUrl))}`);
  const choice = {
    text: has(parsed, "--text"),
    svgFile: typeof svgPath === "string" ? svgPath : null,
    embedSvg: has(parsed, "--embed-svg"),
    out,
    baseUrl: typeof baseUrl === "string" ? baseUrl : null,
  };
  const format = formatOf(parsed);
  const directory = (format === "auto" || format === "partition") && (await isDirectory(path));
  if (directory && (has(parsed, "--redact") || has(parsed, "--embed-svg")))
    throw new UsageError("iggy-batch: report DIR takes neither --redact nor --embed-svg; redact or embed one segment at a time (report FILE)");
  const made = directory ? await reportDirectory(path, choice) : null;
  const subject = made ? null : await subjectOf(capture ? capture.bytes : await readInputBytes(path), path, format, redactChoice(parsed));
  const { report: text, svgFile } = made ?? reportOf(subject as Subject, choice);
  if (svgFile) {
    const sink = await openSink(svgFile.path);
    await writeText(sink, slices(svgFile.svg));
    await sink.end();
  }
  const writer = writerTo(out);
  await writer.write(slices(text + "\n"));
  await writer.end();
  return made ? made.status : (subject as Subject).analysis.summary.errors > 0 ? 1 : 0;
}

/** The `messages` command. */
export async function messages(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const mode = parsed.options.get("--print-payload");
  if (mode !== undefined && mode !== "text" && mode !== "hex" && mode !== "base64")
    throw new UsageError(`iggy-batch: --print-payload takes text, hex or base64, not ${JSON.stringify(visibleText(String(mode)))}`);
  const from = parsed.options.get("--from");
  if (typeof from === "string" && (!/^\d{1,20}$/.test(from) || BigInt(from) > 0xffff_ffff_ffff_ffffn))
    throw new UsageError(`iggy-batch: --from takes a message offset (a u64), not ${JSON.stringify(visibleText(from))}`);
  const template = parsed.options.get("--format");
  const inputFormat = parsed.options.get("--input-format");
  const writer = writerTo(outOf(parsed));
  const status = await listMessages(
    path,
    {
      jsonl: has(parsed, "--jsonl"),
      payload: mode ?? null,
      from: typeof from === "string" ? BigInt(from) : null,
      count: count("--count", parsed.options.get("--count")),
      batch: count("--batch", parsed.options.get("--batch")),
      template: typeof template === "string" ? template : null,
      format: typeof inputFormat === "string" ? parseFormat("--format", visibleText(inputFormat)) : "auto",
    },
    (text) => writer.write([text]),
  );
  await writer.end();
  return status;
}

/** The `explain` command. */
export function explain(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  process.stdout.write(explainText(operandOf(spec, parsed)));
  return Promise.resolve(0);
}

/** The `redact` command. */
export async function redact(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const subject = await subjectOf(await readInputBytes(path), path, formatOf(parsed), {
    userHeaders: has(parsed, "--user-headers"),
    ids: has(parsed, "--ids"),
  });
  const sink = await openSink(out);
  await sink.write(subject.bytes);
  await sink.end();
  const n = subject.analysis.diagnostics.length;
  process.stderr.write(
    `iggy-batch: wrote ${subject.bytes.length} bytes to ${visibleText(out)}: ${subject.replaced}; the same ${plural(n, "diagnostic")} as the original (SHA-256 ${subject.redacted?.originalSha256})\n`,
  );
  return 0;
}

/** The `render` command. */
export async function render(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const rangeText = parsed.options.get("--range");
  const range = typeof rangeText === "string" ? parseRange(rangeText) : null;
  if (typeof rangeText === "string" && !range)
    throw new UsageError(`iggy-batch: --range takes A..B (decimal or 0x hex, A ≤ B), not ${JSON.stringify(visibleText(rangeText))}`);
  const bytes = await readInputBytes(path);
  if (range && range.start >= bytes.length && bytes.length > 0)
    throw new UsageError(`iggy-batch: --range starts at ${range.start}, past the end of the input (${bytes.length} bytes)`);
  const subject = await subjectOf(bytes, path, formatOf(parsed), redactChoice(parsed));
  const diagramText = parsed.options.get("--diagram");
  const target = typeof diagramText === "string" ? parseDiagramTarget(subject.analysis, diagramText) : null;
  if (typeof target === "string") throw new UsageError(`iggy-batch: ${visibleText(target)}`);
  const writer = writerTo(outOf(parsed));
  await writer.write(slices((target ? diagramOf(subject, target) : pictureOf(subject, range).svg) + "\n"));
  await writer.end();
  return subject.analysis.summary.errors > 0 ? 1 : 0;
}

/** The `convert` command. */
export async function convert(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  const id = (parsed.options.get("--partition-id") as string | undefined) ?? "0";
  if (!/^\d{1,20}$/.test(id) || BigInt(id) > 0xffff_ffff_ffff_ffffn)
    throw new UsageError(`iggy-batch: --partition-id takes a u64, not ${JSON.stringify(visibleText(id))}`);
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const segment = await convertOne(await readInputBytes(path), path, formatOf(parsed), out, BigInt(id));
  if (out === "-") await (await openSink("-")).write(segment);
  else process.stderr.write(`iggy-batch: wrote a ${segment.length}-byte stamped segment to ${visibleText(out)}\n`);
  return 0;
}

/** The `build` command. */
export async function build(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const file = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const bytes = await readInputBytes(file);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new UsageError(`iggy-batch: ${visibleText(file)} is not JSON: ${visibleText((err as Error).message)}`);
  }
  let batch: Uint8Array;
  try {
    batch = buildFromSpec(await loadXxh3(), json, {
      nowMillis: () => Date.now(),
      randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))),
    });
  } catch (err) {
    if (err instanceof BuildSpecError || err instanceof RangeError) throw new UsageError(`iggy-batch: ${visibleText(err.message)}`);
    throw err;
  }
  const sink = await openSink(out);
  await sink.write(batch);
  await sink.end();
  if (out !== "-") process.stderr.write(`iggy-batch: wrote ${batch.length} bytes to ${visibleText(out)}\n`);
  return 0;
}

/** The `extract` command. */
export async function extract(spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  const path = operandOf(spec, parsed);
  const out = parsed.options.get("--out") as string;
  const message = parsed.options.get("--message");
  if (typeof message !== "string" && !has(parsed, "--batches")) throw new UsageError("iggy-batch extract: give --message C:I or --batches");
  if (out === "-" && process.stdout.isTTY) throw new UsageError("iggy-batch: refusing to write binary to a terminal; use -o FILE");
  const capture = await captureInput(path, "capture");
  if (!capture || !("source" in capture)) throw new UsageError(`iggy-batch: cannot read ${visibleText(path)}`);
  let parts: Uint8Array[];
  try {
    parts = await extractCapture(
      capture,
      { message: typeof message === "string" ? message : null, batches: has(parsed, "--batches") },
      parsePort(parsed.options.get("--port")),
      redactChoice(parsed),
    );
  } finally {
    capture.close();
  }
  const sink = await openSink(out);
  let total = 0;
  for (const p of parts) {
    await sink.write(p);
    total += p.length;
  }
  await sink.end();
  if (out !== "-")
    process.stderr.write(
      `iggy-batch: wrote ${total} bytes${typeof message === "string" ? "" : ` (${plural(parts.length, "batch", "batches")})`} to ${visibleText(out)}\n`,
    );
  return 0;
}
