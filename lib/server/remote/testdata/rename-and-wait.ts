// A web server in LANGGRAPH_API_URL mode for the restart test: says "ready", and on a line
// `<threadId> <title>` on stdin sends that rename through the process's own forwarder (getRemote,
// journal in DATA_DIR), prints the answer, then keeps running until the test kills it — so what
// it had not yet written upstream can only come back from the journal.
import readline from "node:readline";
import { getRemote } from "../index";

const remote = getRemote()!;
console.log("ready");
readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  const [threadId, ...words] = line.trim().split(" ");
  const res = await remote.handle(
    new Request(`http://127.0.0.1/api/langgraph/threads/${threadId}/state`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ values: { title: words.join(" ") } }),
    }),
  );
  console.log(JSON.stringify(await res.json()));
});
setInterval(() => {}, 1000);
