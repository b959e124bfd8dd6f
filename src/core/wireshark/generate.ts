/**
 * Generates the Wireshark Lua dissector for Iggy (captures.md "A Wireshark dissector from the same
 * tables") from the layout tables and the code table: pure text, no host APIs. `iggy-batch
 * wireshark` and `npm run wireshark` write what it returns.
 */
import { BATCH_HEADER_FIELDS, FRAME_HEADER_FIELDS } from "../../format/fields.ts";
import { COMMAND, CONSENSUS_COMMON_FIELDS, PREPARE_FIELDS, PREPARE_OK_FIELDS, REPLY_FIELDS, REQUEST_FIELDS } from "../../format/containers/consensus.ts";
import {
  CONFIRMATION_COUNT_FIELDS,
  CONFIRMATION_FIELDS,
  CONSUMER_KIND_NAMES,
  EVICTION_FIELDS,
  EVICTION_REASON_NAMES,
  LEGACY_COMMAND_NAME_OF,
  LOGIN_CONTEXT_FIELDS,
  LOGIN_NAME_FIELDS,
  LOGIN_SECRET_FIELDS,
  LOGIN_VERSION_FIELDS,
  OPERATION_NAME_OF,
  POLL_REQUEST_CONSUMER_FIELDS,
  POLL_REQUEST_IDENTIFIER_FIELDS,
  POLL_REQUEST_TAIL_FIELDS,
  POLLING_STRATEGY_NAMES,
  SECRET_MASK,
} from "../../format/containers/protocol.ts";
import { iggyError } from "../../format/iggy-errors.ts";
import { POLL_PREFIX_FIELDS } from "../../format/containers/poll-reply.ts";
import {
  IDENTIFIER_KIND_NAMES,
  PARTITIONING_KIND_NAMES,
  SEND_IDENTIFIER_FIELDS,
  SEND_MESSAGES_COUNT_FIELDS,
  SEND_METADATA_LENGTH_FIELDS,
  SEND_PARTITIONING_FIELDS,
} from "../../format/containers/send-messages.ts";
import { TOOL_VERSION } from "../../version.ts";
import { declarationsLua, EXTRA_FIELDS, type DissectorLayout } from "./lua-fields.ts";
import { ENGINE_CODES, engineLua } from "./lua-engine.ts";
import { MESSAGE_CODES, messagesLua } from "./lua-messages.ts";
import { STREAM_CODES, streamLua } from "./lua-stream.ts";
import { CAPTURE_CODES_NOT_SEEN, TCP_CODES, tcpLua } from "./lua-tcp.ts";
import { XXH3_LUA } from "./xxh3-lua.ts";
import { luaNumberMap } from "./lua-text.ts";

const COMMAND_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(COMMAND).map(([name, n]) => [n, name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())]),
);

/** Every layout the dissector decodes, by the name its walk uses. */
export const DISSECTOR_LAYOUTS: readonly DissectorLayout[] = [
  { name: "header", fields: CONSENSUS_COMMON_FIELDS, valueNames: { "consensus.command": COMMAND_NAMES } },
  { name: "request", fields: REQUEST_FIELDS, valueNames: { "request.operation": OPERATION_NAME_OF, "request.legacy_operation": LEGACY_COMMAND_NAME_OF } },
  { name: "reply", fields: REPLY_FIELDS, valueNames: { "reply.operation": OPERATION_NAME_OF, "reply.status": iggyErrorNames() } },
  { name: "prepare", fields: PREPARE_FIELDS, valueNames: { "prepare.operation": OPERATION_NAME_OF } },
  { name: "prepare_ok", fields: PREPARE_OK_FIELDS, valueNames: { "prepare_ok.operation": OPERATION_NAME_OF } },
  { name: "eviction", fields: EVICTION_FIELDS, valueNames: { "eviction.reason": EVICTION_REASON_NAMES } },
  { name: "send_metadata", fields: SEND_METADATA_LENGTH_FIELDS },
  { name: "send_identifier", fields: SEND_IDENTIFIER_FIELDS, valueNames: { "send.identifier_kind": IDENTIFIER_KIND_NAMES } },
  { name: "send_partitioning", fields: SEND_PARTITIONING_FIELDS, valueNames: { "send.partitioning_kind": PARTITIONING_KIND_NAMES } },
  { name: "send_count", fields: SEND_MESSAGES_COUNT_FIELDS },
  { name: "poll_prefix", fields: POLL_PREFIX_FIELDS },
  { name: "batch", fields: BATCH_HEADER_FIELDS },
  { name: "frame", fields: FRAME_HEADER_FIELDS },
  { name: "poll_request_consumer", fields: POLL_REQUEST_CONSUMER_FIELDS, valueNames: { "poll_request.consumer_kind": CONSUMER_KIND_NAMES } },
  { name: "poll_request_identifier", fields: POLL_REQUEST_IDENTIFIER_FIELDS, valueNames: { "poll_request.identifier_kind": IDENTIFIER_KIND_NAMES } },
  { name: "poll_request_tail", fields: POLL_REQUEST_TAIL_FIELDS, valueNames: { "poll_request.strategy": POLLING_STRATEGY_NAMES } },
  { name: "login_version", fields: LOGIN_VERSION_FIELDS },
  { name: "login_name", fields: LOGIN_NAME_FIELDS },
  { name: "login_secret", fields: LOGIN_SECRET_FIELDS, secret: { kinds: ["login.secret"], mask: SECRET_MASK } },
  { name: "login_context", fields: LOGIN_CONTEXT_FIELDS },
  { name: "confirm_count", fields: CONFIRMATION_COUNT_FIELDS },
  { name: "confirm", fields: CONFIRMATION_FIELDS },
];

/** IggyError names by code (the reply status), from the generated upstream table. */
function iggyErrorNames(): Record<number, string> {
  const names: Record<number, string> = {};
  // The table keeps its rows private; codes are below 65536 (iggy_error.rs).
  for (let code = 1; code < 0x10000; code++) {
    const e = iggyError(code);
    if (e) names[code] = e.name;
  }
  return names;
}

/** Every code the dissector can raise as an expert info (the rest of the code table is about files or TCP). */
export const DISSECTOR_CODES: ReadonlySet<string> = new Set([...ENGINE_CODES, ...MESSAGE_CODES, ...STREAM_CODES, ...TCP_CODES]);

/** The whole dissector as Lua 5.2 text for Wireshark and tshark 4.0 or later. */
export function wiresharkDissector(): string {
  return [
    `-- Apache Iggy dissector for Wireshark/tshark 4.0+ (Lua 5.2), generated by iggy-batch ${TOOL_VERSION} from the`,
    "-- explorer's layout and code tables (src/format). Do not edit: run `iggy-batch wireshark -o iggy.lua`.",
    "-- Install: copy into Wireshark's personal Lua plugins folder, or run `tshark -X lua_script:iggy.lua -r FILE`.",
    "-- Capture codes and what a dissector sees of them:",
    ...Object.entries(CAPTURE_CODES_NOT_SEEN).map(([code, why]) => `--   ${code}: ${why}.`),
    "do",
    XXH3_LUA,
    declarationsLua(DISSECTOR_LAYOUTS, EXTRA_FIELDS),
    `local IGGY_ERRORS, LEGACY_NAMES = ${luaNumberMap(iggyErrorNames())}, ${luaNumberMap(LEGACY_COMMAND_NAME_OF)}`,
    engineLua(),
    messagesLua(),
    tcpLua(),
    streamLua(),
    "end",
    "",
  ].join("\n");
}
