/**
 * The on-disk form of a recorded workflow history (test/workflows/histories/*.json).
 *
 * The history is protobufjs's plain-object form of `temporal.api.history.v1.History` (64-bit
 * ids, enums and bytes as strings), not the proto3 JSON of `temporal workflow show -o json`:
 * the SDK's historyFromJSON/historyToJSON fail in this dependency tree ("type must be a
 * Type": npm keeps separate protobufjs copies under @temporalio/common and @temporalio/proto),
 * while toObject/fromObject use the one copy that defines the types.
 */
// A dependency of @temporalio/client (same release); tests only.
import proto from '@temporalio/proto';
import type { History } from '@temporalio/common/lib/proto-utils.js';

const HistoryType = proto.temporal.api.history.v1.History;
const FORMAT = 'protobufjs-object:temporal.api.history.v1.History';

export interface HistoryFile {
  /** What the recorded run did. */
  description: string;
  workflowType: string;
  format: typeof FORMAT;
  history: Record<string, unknown>;
}

export function historyObject(history: History): Record<string, unknown> {
  return HistoryType.toObject(history as never, { longs: String, enums: String, bytes: String });
}

export function encodeHistoryFile(description: string, workflowType: string, history: History): string {
  const file: HistoryFile = { description, workflowType, format: FORMAT, history: historyObject(history) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function decodeHistoryFile(text: string): { file: HistoryFile; history: History } {
  const file = JSON.parse(text) as HistoryFile;
  if (file.format !== FORMAT) throw new Error(`unknown history format ${String(file.format)}`);
  return { file, history: HistoryType.fromObject(file.history) };
}
