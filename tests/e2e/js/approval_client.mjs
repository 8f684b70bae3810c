// The approval round trip with the real AI SDK client (major 6 or 7): ask for a change, receive the
// tool call in state approval-requested, answer it (approved or not, optionally with a forged id), send
// the continuation as useChat does (same messageId), and print the final assistant message.
// Usage: node approval_client.mjs <ai6|ai7> <api url> <token of asker> <token of approver> <text> <yes|no|forge>
import { createRequire } from "node:module";
import path from "node:path";

const [, , pkg, api, askerToken, approverToken, text, answer] = process.argv;
const require = createRequire(path.resolve(process.cwd(), "local", "package.json"));
const ai = await import(require.resolve(pkg));

async function send(token, messages, messageId, message) {
  const transport = new ai.DefaultChatTransport({ api, headers: { Authorization: `Bearer ${token}` } });
  const stream = await transport.sendMessages({
    chatId: "chat-approval", messages, trigger: "submit-message", messageId, abortSignal: undefined,
  });
  let failure;
  let last;
  for await (const m of ai.readUIMessageStream({ message, stream, onError: (e) => { failure = e; } })) last = m;
  if (failure) throw failure;
  return last;
}

const user = { id: "u1", role: "user", parts: [{ type: "text", text }] };
const proposed = await send(askerToken, [user]);
const tool = proposed.parts.find((p) => p.type.startsWith("tool-"));
if (!tool || tool.state !== "approval-requested") {
  console.error(JSON.stringify(proposed));
  process.exit(3);
}
const approval = { id: answer === "forge" ? "apr_forged000000000000000000" : tool.approval.id, approved: answer !== "no" };
const answered = structuredClone(proposed);
const part = answered.parts.find((p) => p.toolCallId === tool.toolCallId);
part.state = "approval-responded";
part.approval = approval;
const final = await send(approverToken, [user, answered], answered.id, structuredClone(answered));
console.log(JSON.stringify({ proposed, final }));
