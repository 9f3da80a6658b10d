// Shared by the read cache's tests and bench: entries appended to a pi
// SessionManager the way pi's agent appends a tool call and its result.

const USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
let seq = 0;

/** Appends an assistant message calling tool `name` with `args`; returns the call's id. */
export function appendToolCall(sm, name, args) {
  const id = `call_${++seq}`;
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "toolCall", id, name, arguments: args }],
    api: "faux",
    provider: "faux",
    model: "faux",
    usage: USAGE,
    stopReason: "toolUse",
    timestamp: Date.now(),
  });
  return id;
}

/** Appends the tool call and its result ({content, details}, isError); returns the result entry's id. */
export function appendToolRun(sm, name, args, result, isError = false) {
  const id = appendToolCall(sm, name, args);
  return sm.appendMessage({ role: "toolResult", toolCallId: id, toolName: name, content: result.content, details: result.details, isError, timestamp: Date.now() });
}
