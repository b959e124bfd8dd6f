/** `iggy-batch wireshark`: writes the generated Wireshark Lua dissector (src/core/wireshark). */
import { wiresharkDissector } from "../src/core/wireshark/generate.ts";
import { visibleText } from "../src/lib/text-escape.ts";
import type { CommandSpec, ParsedArgs } from "./args.ts";
import { ArgError } from "./args.ts";
import { openSink, slices, writeText } from "./io.ts";

/** Writes the dissector to -o's file or standard output; always status 0. */
export async function wireshark(_spec: CommandSpec, parsed: ParsedArgs): Promise<number> {
  if (parsed.operands.length > 0) throw new ArgError("takes no operand");
  const out = (parsed.options.get("--out") as string | undefined) ?? "-";
  const lua = wiresharkDissector();
  const sink = await openSink(out);
  await writeText(sink, slices(lua));
  await sink.end();
  if (out !== "-") process.stderr.write(`iggy-batch: wrote the Wireshark dissector (${lua.length} bytes) to ${visibleText(out)}\n`);
  return 0;
}
