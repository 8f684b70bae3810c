// Reattaches the real AI SDK client (the `ai` package, major 6 or 7) to the reply being written, as
// useChat({ resume: true }) does: DefaultChatTransport.reconnectToStream against the resume route.
// Usage: node resume_client.mjs <ai6|ai7> <chat api url> <resume url> <token>
// Prints {"resumed": null} on 204, else {"resumed": <the assembled assistant UIMessage>, "error": ...}.
import { createRequire } from "node:module";
import path from "node:path";

const [, , pkg, api, resumeUrl, token] = process.argv;
const require = createRequire(path.resolve(process.cwd(), "local", "package.json"));
const ai = await import(require.resolve(pkg));

const transport = new ai.DefaultChatTransport({
  api,
  headers: { Authorization: `Bearer ${token}` },
  prepareReconnectToStreamRequest: ({ headers }) => ({ api: resumeUrl, headers }),
});
const stream = await transport.reconnectToStream({ chatId: "chat-1" });
if (stream === null) {
  console.log(JSON.stringify({ resumed: null }));
  process.exit(0);
}
let failure;
let last;
for await (const message of ai.readUIMessageStream({ stream, onError: (error) => { failure = error; } })) {
  last = message;
}
console.log(JSON.stringify({ resumed: last ?? null, error: failure ? String(failure) : null }));
