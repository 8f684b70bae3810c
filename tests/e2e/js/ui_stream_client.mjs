// Drives the real AI SDK client (the `ai` package, major 6 or 7) against the agent's chat endpoint, the
// way useChat does: DefaultChatTransport sends, readUIMessageStream assembles and validates every chunk.
// Usage: node ui_stream_client.mjs <ai6|ai7> <api url> <token> <text>
// Prints the assembled assistant UIMessage as JSON; exits non-zero if the client rejects the stream.
import { createRequire } from "node:module";
import path from "node:path";

const [, , pkg, api, token, text] = process.argv;
const require = createRequire(path.resolve(process.cwd(), "local", "package.json"));
const ai = await import(require.resolve(pkg));

const transport = new ai.DefaultChatTransport({ api, headers: { Authorization: `Bearer ${token}` } });
const stream = await transport.sendMessages({
  chatId: "chat-1",
  messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
  trigger: "submit-message",
  messageId: undefined,
  abortSignal: undefined,
});
let failure;
let last;
for await (const message of ai.readUIMessageStream({ stream, onError: (error) => { failure = error; } })) {
  last = message;
}
if (failure) {
  console.error(String(failure));
  process.exit(2);
}
console.log(JSON.stringify(last));
