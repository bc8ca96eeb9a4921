import { referencePayload, referenceModel } from "../tests/reference/pi.ts";
for (const [p, id] of [["anthropic","claude-sonnet-4-5"],["openai","gpt-5.1-codex"],["xai","grok-4"],["google","gemini-2.5-pro"],["openai-codex","gpt-5.1-codex"]]) {
  const m = referenceModel(p, id);
  console.log(p, id, m?.api);
  if (!m) continue;
  const r = await referencePayload(m, { systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { reasoning: "high", sessionId: "s1" });
  console.log(JSON.stringify(r).slice(0, 600));
}
