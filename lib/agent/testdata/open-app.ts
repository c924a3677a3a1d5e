// A Threadline process for the one-process-per-database test: opens the app's database, says so, waits.
import { openAppAgent } from "../runtime";

openAppAgent(process.env).then(
  () => console.log("opened"),
  (err: Error) => {
    console.log(`refused: ${err.message}`);
    process.exit(3);
  },
);
setInterval(() => {}, 1000);
