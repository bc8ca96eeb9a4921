/** A snapshot as plain text for people: what `snapshot --open` prints. */
import type { Snapshot } from "./schema.ts";
import { describeFates, summarizeSnapshot } from "./summary.ts";

const pad = (label: string): string => label.padEnd(14);

/** The lines of the report: facts first, then findings, redactions, images, and the path with every fate. */
export function snapshotReport(snapshot: Snapshot): string[] {
  const s = summarizeSnapshot(snapshot);
  const lines = [
    `Context Lens snapshot, version ${snapshot.version}: made ${snapshot.createdAt} by Context Lens ${snapshot.producer.contextLens} (pi ${snapshot.producer.pi})`,
    `${pad("session")}${s.session}${snapshot.session.cwd ? `  cwd ${snapshot.session.cwd}` : ""}  (file format v${snapshot.session.version})`,
    `${pad("leaf")}${s.leaf}; path of ${s.pathLength} entries: ${describeFates(s.fates)}`,
    `${pad("model")}${s.model}`,
    `${pad("rules")}${s.rules}${snapshot.rules.preset ? ` (from preset "${snapshot.rules.preset}")` : ""}`,
  ];
  for (const [key, value] of Object.entries(snapshot.rules.settings))
    lines.push(`${pad("")}${key}: ${JSON.stringify(value)}`);
  lines.push(
    `${pad("system prompt")}${s.systemPrompt}`,
    `${pad("tools")}${s.tools}`,
    `${pad("payload")}${s.items} ${snapshot.payload.listKey} items, ${s.payloadBytes.toLocaleString("en-US")} bytes of JSON`,
    `${pad("tokens")}${s.tokens ?? "not counted"}`,
  );
  lines.push(`${pad("findings")}${snapshot.findings.length === 0 ? "none" : snapshot.findings.length}`);
  for (const f of snapshot.findings) lines.push(`  ${f.severity}: ${f.message} (${f.entries.join(", ")})`);
  lines.push(`${pad("redactions")}${snapshot.redactions.length === 0 ? "none" : snapshot.redactions.length}`);
  for (const r of snapshot.redactions)
    lines.push(`  ${r.label} → ${r.replacement} at ${r.where} (${r.by === "rule" ? "by rule" : "before sharing"})`);
  lines.push(
    `${pad("images")}${snapshot.images.length === 0 ? "none left out" : `${snapshot.images.length} left out`}`,
  );
  for (const i of snapshot.images)
    lines.push(`  ${i.mimeType}, ${i.bytes.toLocaleString("en-US")} bytes at ${i.where}`);
  lines.push("path (root → leaf):");
  for (const entry of snapshot.path)
    lines.push(
      `  line ${String(entry.line).padStart(5)}  ${entry.ref.padEnd(12)} ${entry.type.padEnd(22)} ${entry.fate.reason}`,
    );
  return lines;
}
