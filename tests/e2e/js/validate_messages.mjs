// Validates UI messages (read as JSON from stdin) with the real AI SDK's validateUIMessages, as a page
// that restores a chat from GET .../agent/messages would. Usage: node validate_messages.mjs <ai6|ai7>
import { createRequire } from "node:module";
import path from "node:path";

const [, , pkg] = process.argv;
const require = createRequire(path.resolve(process.cwd(), "local", "package.json"));
const ai = await import(require.resolve(pkg));

let input = "";
for await (const chunk of process.stdin) input += chunk;
const messages = await ai.validateUIMessages({ messages: JSON.parse(input) });
console.log(JSON.stringify({ count: messages.length }));
